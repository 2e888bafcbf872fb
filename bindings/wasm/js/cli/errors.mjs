// The CLI's errors: each message says what was wrong and where; the CLI prints it and exits 1
// (2 for a usage error).

/** A problem with an input file or one of its lines, named in the message. */
export class InputError extends Error {}
