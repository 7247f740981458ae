import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from './url-check.js';

const strict = { allowPrivateTargets: false };
const permissive = { allowPrivateTargets: true };
const loopback = { allowPrivateTargets: false, allowLoopback: true };

function messageOf(input: unknown, policy = strict): string | null {
  const result = checkWebhookUrl(input, policy);
  if (result.ok) return null;
  expect(result.errors).toHaveLength(1);
  expect(result.errors[0]!.path).toEqual(['webhook', 'url']);
  return result.errors[0]!.message;
}

describe('checkWebhookUrl', () => {
  it('accepts HTTPS URLs on public names and addresses, on 443 or an unprivileged port', () => {
    for (const url of ['https://hooks.example.com/retail', 'https://hooks.example.com:443/x?y=1', 'https://hooks.example.com:8443/', 'https://93.184.215.14/in', 'https://[2606:4700::1111]:65535/']) {
      const result = checkWebhookUrl(url, strict);
      expect(result.ok, url).toBe(true);
    }
    const result = checkWebhookUrl('https://Hooks.Example.COM/a', strict);
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/a');
  });

  it('refuses what is not an HTTPS URL, credentials, fragments and overlong URLs', () => {
    expect(messageOf(undefined)).toBe('must be an HTTPS URL');
    expect(messageOf('   ')).toBe('must be an HTTPS URL');
    expect(messageOf('hooks.example.com/x')).toBe('must be an absolute HTTPS URL');
    expect(messageOf('http://hooks.example.com/')).toMatch(/must use https/);
    expect(messageOf('ftp://hooks.example.com/')).toMatch(/must use https/);
    expect(messageOf('https://user:pass@hooks.example.com/')).toMatch(/user name or password/);
    expect(messageOf('https://user@hooks.example.com/')).toMatch(/user name or password/);
    expect(messageOf('https://hooks.example.com/#frag')).toMatch(/fragment/);
    expect(messageOf(`https://hooks.example.com/${'a'.repeat(2048)}`)).toMatch(/at most 2048/);
  });

  it('refuses privileged ports other than 443', () => {
    for (const port of [22, 25, 80, 444, 1023]) {
      expect(messageOf(`https://hooks.example.com:${port}/`), String(port)).toBe(`port ${port} is not allowed: use 443 or a port from 1024 to 65535`);
    }
  });

  it('refuses internal address literals in every spelling the URL parser turns into them', () => {
    for (const url of ['https://127.0.0.1/', 'https://2130706433/', 'https://0x7f.1/', 'https://[::1]/', 'https://[::ffff:7f00:1]/', 'https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data/']) {
      expect(messageOf(url), url).toMatch(/(loopback|private|metadata).*; webhooks go to public hosts only$/);
    }
  });

  it('refuses internal and single-label names', () => {
    expect(messageOf('https://localhost/')).toBe('localhost is an internal name (.localhost); webhooks go to public hosts only');
    for (const url of ['https://LOCALHOST./', 'https://app.localhost/', 'https://printer.local/', 'https://metadata.google.internal/', 'https://nas.home.arpa/', 'https://api.default.svc/', 'https://redis.default.svc.cluster.local/']) {
      expect(messageOf(url), url).toMatch(/internal name/);
    }
    expect(messageOf('https://intranet/')).toMatch(/single-label name/);
  });

  it('lets the operator allow private targets, but never metadata or non-unicast addresses', () => {
    for (const url of ['https://localhost:8443/', 'https://127.0.0.1:9000/', 'https://10.0.0.1/', 'https://intranet/', 'https://receiver.svc/']) {
      expect(checkWebhookUrl(url, permissive).ok, url).toBe(true);
    }
    expect(messageOf('https://169.254.169.254/', permissive)).toMatch(/metadata/);
    expect(messageOf('https://0.0.0.0/', permissive)).toMatch(/unspecified/);
    expect(messageOf('https://224.0.0.1/', permissive)).toMatch(/multicast/);
  });

  it('with loopback allowed (npm start), takes http and https to this machine only, on an unprivileged port', () => {
    for (const url of ['http://127.0.0.1:3000/hook', 'http://localhost:4242/', 'http://[::1]:8081/x', 'https://127.0.0.2:8443/', 'https://hooks.example.com/']) {
      expect(checkWebhookUrl(url, loopback).ok, url).toBe(true);
    }
    expect(messageOf('http://hooks.example.com/', loopback)).toBe('must use https (or http to this machine: 127.0.0.1, [::1], localhost)');
    expect(messageOf('http://127.0.0.1/hook', loopback)).toBe('port 80 is not allowed: use 443 or a port from 1024 to 65535');
    expect(messageOf('http://10.0.0.1:3000/', loopback)).toMatch(/must use https/);
    expect(messageOf('https://10.0.0.1/', loopback)).toMatch(/private.*public hosts only$/);
    expect(messageOf('https://printer.local/', loopback)).toMatch(/internal name/);
    expect(messageOf('http://[::ffff:7f00:1]:3000/', loopback)).toMatch(/must use https/);
  });
});
