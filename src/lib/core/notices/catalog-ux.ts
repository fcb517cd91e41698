// Messages of the ux area, by code ('ux.<what-happened>'): each in English and Chinese.
export const uxNotices = {};
