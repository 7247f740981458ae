/** A job body that no item can answer for: the whole call's refusal, with its status and where it points. */
export class BodyRefusal extends Error {
  constructor(readonly status: 400 | 413 | 415, message: string, readonly path: string[] = ['body']) {
    super(message);
  }
}
