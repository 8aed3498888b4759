import { describe, expect, it } from 'vitest';
import {
  brokerAllowed,
  brokerOffer,
  effectiveSettings,
  isLocked,
  NO_POLICY,
  policyAllowsSite,
  policyOffersServer,
  policyOffersTool,
  readPolicy,
  siteMatches,
} from './policy';
import { defaultSettings } from './settings';

describe('readPolicy', () => {
  it('reads each key on its own: a bad value or an unknown name is ignored, the rest is used', () => {
    const read = readPolicy({
      AllowedSites: ['https://app.example.com'],
      ActModeLockedOff: 'yes',
      Whatever: 1,
      AlwaysConfirm: true,
    });
    expect(read.policy).toEqual({ AllowedSites: ['https://app.example.com'], AlwaysConfirm: true });
    expect(read.read).toEqual(['AllowedSites', 'AlwaysConfirm']);
    expect(read.ignored).toEqual(['ActModeLockedOff', 'Whatever']);
  });

  it('reads nothing from nothing', () => {
    expect(readPolicy(undefined)).toBe(NO_POLICY);
    expect(readPolicy([])).toBe(NO_POLICY);
    expect(readPolicy({})).toEqual(NO_POLICY);
  });
});

describe('siteMatches', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com:8443', 'https://app.example.com', false],
    ['http://app.example.com', 'https://app.example.com', false],
    ['http://127.0.0.1:8090', 'http://127.0.0.1:8090', true],
    ['http://127.0.0.1:8091', 'http://127.0.0.1:8090', false],
    ['http://127.0.0.1:8091', '127.0.0.1', true],
    ['http://127.0.0.1:8091', 'http://127.0.0.1:*', true],
    ['https://a.b.example.com', '*.example.com', true],
    ['https://example.com', '*.example.com', true],
    ['https://notexample.com', '*.example.com', false],
    ['https://example.com.evil.test', 'example.com', false],
    ['https://x.example.com:8443', 'https://*.example.com:8443', true],
    ['https://example.com', 'not a pattern/x', false],
  ])('%s within %s: %s', (origin, pattern, expected) => {
    expect(siteMatches(origin, pattern)).toBe(expected);
  });

  it('leaves every site allowed when the policy sets no list, and none when its list is empty', () => {
    expect(policyAllowsSite({}, 'https://x.test')).toBe(true);
    expect(policyAllowsSite({ AllowedSites: [] }, 'https://x.test')).toBe(false);
  });
});

describe('brokers', () => {
  it('matches broker URLs with * patterns, all of them when the policy names none', () => {
    const policy = { AllowedBrokers: ['wss://openab.corp.example/*', 'ws://127.0.0.1:*/acp'] };
    expect(brokerAllowed(policy, 'wss://openab.corp.example/acp')).toBe(true);
    expect(brokerAllowed(policy, 'ws://127.0.0.1:9000/acp')).toBe(true);
    expect(brokerAllowed(policy, 'wss://evil.example/acp')).toBe(false);
    expect(brokerAllowed(policy, 'wss://openab.corp.example.evil.test/acp')).toBe(false);
    expect(brokerAllowed({}, 'wss://anything/')).toBe(true);
  });

  it('gives each broker the first offer that matches, and page tools off everywhere when the policy turns them off', () => {
    const policy = {
      BrokerOffers: [
        { broker: 'ws://127.0.0.1:*/*', browserTools: ['snapshot', 'find'], connectors: [] },
        { broker: '*', pageTools: true },
      ],
      PageTools: false,
    };
    const local = brokerOffer(policy, 'ws://127.0.0.1:9/acp');
    expect([...local.browserTools!]).toEqual(['snapshot', 'find']);
    expect([...local.connectors!]).toEqual([]);
    expect(local.pageTools).toBe(false);
    expect(brokerOffer(policy, 'wss://x/acp')).toEqual({ pageTools: false });
    expect(brokerOffer({}, 'wss://x/acp')).toEqual({});
  });
});

describe('what a broker’s agents are offered', () => {
  const policy = {
    BrokerOffers: [{ broker: 'wss://openab.corp.example/*', browserTools: ['snapshot'], connectors: ['redmine'] }],
    PageTools: false,
  };
  it('limits connectors by id and page tools, and browser tools by name, bare or listed', () => {
    const url = 'wss://openab.corp.example/acp';
    expect(policyOffersServer(policy, url, 'connector:redmine')).toBe(true);
    expect(policyOffersServer(policy, url, 'connector:fossil')).toBe(false);
    expect(policyOffersServer(policy, url, 'page:https://shop.example')).toBe(false);
    expect(policyOffersServer(policy, url, 'browser')).toBe(true);
    expect(policyOffersTool(policy, url, 'snapshot')).toBe(true);
    expect(policyOffersTool(policy, url, 'tabwright.snapshot')).toBe(true);
    expect(policyOffersTool(policy, url, 'tabwright.click')).toBe(false);
    expect(policyOffersTool(policy, 'ws://127.0.0.1:1/acp', 'tabwright.click')).toBe(true);
    expect(policyOffersServer(policy, 'ws://127.0.0.1:1/acp', 'connector:fossil')).toBe(true);
  });
});

describe('effectiveSettings', () => {
  const person = {
    ...defaultSettings(),
    actMode: true,
    allowedSites: ['http://127.0.0.1:8090', 'https://mail.example.com'],
    screenshots: true,
    pageToolSites: ['http://127.0.0.1:8090'],
    confirmationTimeoutSec: 300,
  };

  it('is the person’s settings, untouched, without a policy', () => {
    expect(effectiveSettings(person, {})).toBe(person);
  });

  it('narrows: sites within the policy’s, its blocked sites added, locked features off', () => {
    const policy = {
      AllowedSites: ['127.0.0.1'],
      BlockedSites: ['127.0.0.1/admin'],
      ActModeLockedOff: true,
      Screenshots: false,
      PageTools: false,
      ConfirmationTimeoutSeconds: 30,
    };
    const effective = effectiveSettings(person, policy);
    expect(effective.allowedSites).toEqual(['http://127.0.0.1:8090']);
    expect(effective.actMode).toBe(false);
    expect(effective.screenshots).toBe(false);
    expect(effective.pageToolSites).toEqual([]);
    expect(effective.confirmationTimeoutSec).toBe(30);
    expect(effective.blocklist.custom.map((entry) => entry.match)).toEqual([['127.0.0.1/admin']]);
    expect(isLocked(policy, 'actMode')).toBe(true);
    expect(isLocked(policy, 'screenshots')).toBe(true);
    expect(isLocked(policy, 'reportDownloads')).toBe(false);
  });

  it('never widens: a policy allowing a site the person did not allow adds nothing', () => {
    expect(effectiveSettings(person, { AllowedSites: ['*.other.test'] }).allowedSites).toEqual([]);
    expect(effectiveSettings({ ...person, actMode: false }, { ActModeLockedOff: false }).actMode).toBe(false);
  });
});
