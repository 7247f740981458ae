import { describe, expect, it } from 'vitest';
import { describeStartFailure, type StartSettings } from './start-failure.js';

const settings: StartSettings = {
  ports: [{ variable: 'GRPC_PORT', port: 50051, listener: 'the gRPC core' }],
  servers: [{ variable: 'REDIS_URL', url: 'redis://cache.internal:6380', otherwise: 'unset it' }],
};

describe('describeStartFailure', () => {
  it('reads the port out of grpc-js\'s bind error and names its variable', () => {
    const error = new Error('No address added out of total 1 resolved errors: [listen EADDRINUSE: address already in use 127.0.0.1:50051]');
    expect(describeStartFailure(error, settings)).toBe("port 50051 (GRPC_PORT, the gRPC core) is already in use on 127.0.0.1: stop the process that listens there (ss -ltnp 'sport = :50051') or set GRPC_PORT to another port (0 picks a free one)");
  });

  it('names a privileged port without a variable when none sets it', () => {
    expect(describeStartFailure(new Error('listen EACCES: permission denied 0.0.0.0:80'), settings)).toBe('port 80 needs privileges this process lacks: choose another port (above 1023)');
  });

  it('names the URL variable of a server that does not answer, inside an AggregateError', () => {
    const error = new AggregateError([new Error('getaddrinfo ENOTFOUND cache.internal')], 'connect failed');
    expect(describeStartFailure(error, settings)).toBe('REDIS_URL names a server that does not answer (ENOTFOUND cache.internal): start it, correct REDIS_URL, or unset it');
  });

  it('leaves a failure nobody configured to its stack trace', () => {
    expect(describeStartFailure(new TypeError('x is not a function'), settings)).toBeUndefined();
    expect(describeStartFailure(new Error('connect ECONNREFUSED 10.0.0.9:5432'), settings)).toBeUndefined();
  });
});
