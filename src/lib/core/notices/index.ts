export * from './notice.ts';
export { catalog, notice, renderNotice, type Language, type NoticeCode, type ParamArgs, type ParamsOf } from './catalog.ts';
export { JianguError, jianguError, noticeOf } from './jiangu-error.ts';
