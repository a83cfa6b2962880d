import { describe, expect, it } from 'vitest';
import { natsServers } from './nats-connection.js';

describe('NATS_URL as the nats client takes it', () => {
  it('hands over the user and password as options, and the servers without them (what the logs show)', () => {
    expect(natsServers('nats://app:s3cret%2F1@nats:4222')).toEqual({
      servers: ['nats://nats:4222'],
      user: 'app',
      pass: 's3cret/1',
    });
    // The client uses one user for every server of a cluster.
    expect(natsServers('nats://app:pw@n1:4222, nats://n2:4222')).toEqual({
      servers: ['nats://n1:4222', 'nats://n2:4222'],
      user: 'app',
      pass: 'pw',
    });
  });

  it('takes a user without a password as a token, as the NATS tools do', () => {
    expect(natsServers('tls://t0k3n@nats.example:4222')).toEqual({
      servers: ['tls://nats.example:4222'],
      token: 't0k3n',
    });
  });

  it('leaves servers without credentials as they are', () => {
    expect(natsServers('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
    expect(natsServers('127.0.0.1:4222,127.0.0.1:4223')).toEqual({ servers: ['127.0.0.1:4222', '127.0.0.1:4223'] });
  });
});
