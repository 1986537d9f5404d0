/** Text on the ground floor of src-shared: strict UTF-8 decoding and one-pass trimming. */
export * from './utf8.ts';
export * from './trim.ts';
