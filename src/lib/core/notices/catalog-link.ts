// Messages of the link area, by code ('link.<what-happened>'): each in English and Chinese.
export const linkNotices = {};
