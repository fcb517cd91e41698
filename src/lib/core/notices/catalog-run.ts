// Messages of the run area, by code ('run.<what-happened>'): each in English and Chinese.
export const runNotices = {};
