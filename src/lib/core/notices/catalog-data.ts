// Messages of the data area, by code ('data.<what-happened>'): each in English and Chinese.
export const dataNotices = {};
