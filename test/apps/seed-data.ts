/**
 * What the test apps are seeded with, in one place, so end-to-end tests can assert against the
 * same facts the seed scripts wrote.
 */
import type { AppUser } from './common';

const alice: AppUser = { login: 'alice', password: 'secret-alice' };
const bob: AppUser = { login: 'bob', password: 'secret-bob' };

export const FOSSIL_SEED = {
  users: [alice, bob],
  tickets: [
    {
      title: 'Login page rejects long passwords',
      status: 'Open',
      type: 'Code_Defect',
      priority: 'Immediate',
      severity: 'Critical',
      assignedTo: 'alice',
      comment: 'Passwords longer than 64 characters are refused without a message.',
    },
    {
      title: 'Timeline hides merge commits',
      status: 'Verified',
      type: 'Code_Defect',
      priority: 'Medium',
      severity: 'Minor',
      assignedTo: 'alice',
      comment: 'Merges vanish from the timeline when the branch filter is on.',
    },
    {
      title: 'Document the backup procedure',
      status: 'Closed',
      type: 'Documentation',
      priority: 'Low',
      severity: 'Cosmetic',
      assignedTo: 'alice',
      comment: 'Written up on the Backups wiki page.',
    },
    {
      title: 'Speed up the ticket report',
      status: 'Open',
      type: 'Feature_Request',
      priority: 'Medium',
      severity: 'Minor',
      assignedTo: 'bob',
      comment: 'The report takes seconds on large repositories.',
    },
  ],
  wiki: [
    {
      name: 'ReleaseProcess',
      markdown:
        '# Release process\n\nWe tag a release every second **Tuesday**.\n\n- freeze the trunk\n- write the changelog\n',
    },
    { name: 'Backups', markdown: '# Backups\n\nThe repository is copied to the NAS every night.\n' },
  ],
} as const;

export const REDMINE_SEED = { users: [alice, bob] } as const;

export const DOKUWIKI_SEED = {
  users: [alice, bob],
  pages: [
    {
      id: 'release_process',
      text: '====== Release process ======\n\nWe ship every second **Tuesday**.\n\n  * freeze the branch\n  * write the changelog\n',
    },
    {
      id: 'team:onboarding',
      text: '====== Onboarding ======\n\nNew people read the [[release_process|release process]] first.\n',
    },
    { id: 'start', text: '====== Welcome ======\n\nThis wiki holds the team handbook.\n' },
  ],
} as const;
