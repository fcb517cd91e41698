// Messages of the import area, by code ('import.<what-happened>'): each in English and Chinese.
export const importNotices = {};
