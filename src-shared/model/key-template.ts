export type KeyTemplateErrorCode = never;
