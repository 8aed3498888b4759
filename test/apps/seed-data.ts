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

/**
 * MantisBT: two projects with their own categories, issues in several states assigned to alice,
 * two she reported, public and private notes, an attachment and a relationship. Statuses,
 * severities and priorities are MantisBT's English labels, as its pages show them.
 */
export const MANTISBT_SEED = {
  admin: { login: 'administrator', password: 'root' },
  users: [
    { ...alice, realname: 'Alice Archer', access: 'developer' },
    { ...bob, realname: 'Bob Baker', access: 'reporter' },
  ],
  projects: [
    { name: 'Website', description: 'The public web site.', categories: ['Frontend', 'Backend'] },
    { name: 'Mobile App', description: 'The phone app.', categories: ['Android', 'iOS'] },
  ],
  issues: [
    {
      project: 'Website',
      category: 'Frontend',
      summary: 'Checkout button hidden on small screens',
      description: 'On phones narrower than 360 px the checkout button is covered by the footer.',
      reporter: 'administrator',
      handler: 'alice',
      status: 'assigned',
      severity: 'major',
      priority: 'high',
      attachment: { name: 'layout-notes.txt', content: 'footer height 96px, button at 80px\n' },
      notes: [
        { by: 'bob', text: 'Seen on a 360 px wide phone in portrait.', private: false },
        { by: 'alice', text: 'Reproduced; the sticky footer overlaps it.', private: true },
      ],
    },
    {
      project: 'Website',
      category: 'Backend',
      summary: 'Password reset mail never arrives',
      description: 'The reset form says a mail was sent, but none arrives.',
      reporter: 'administrator',
      handler: 'alice',
      status: 'confirmed',
      severity: 'crash',
      priority: 'urgent',
      notes: [{ by: 'bob', text: 'Checked the spam folder too.', private: false }],
    },
    {
      project: 'Website',
      category: 'Frontend',
      summary: 'Old logo still in the footer',
      description: 'The footer shows the logo from before the redesign.',
      reporter: 'administrator',
      handler: 'alice',
      status: 'resolved',
      severity: 'minor',
      priority: 'low',
      notes: [],
    },
    {
      project: 'Mobile App',
      category: 'Android',
      summary: 'App crashes when rotating the camera view',
      description: 'Rotating the phone while the camera view is open closes the app.',
      reporter: 'administrator',
      handler: 'alice',
      status: 'closed',
      severity: 'crash',
      priority: 'high',
      notes: [],
    },
    {
      project: 'Mobile App',
      category: 'iOS',
      summary: 'Settings screen ignores dark mode',
      description: 'The settings screen stays white when the phone is in dark mode.',
      reporter: 'alice',
      handler: null,
      status: 'new',
      severity: 'minor',
      priority: 'normal',
      notes: [],
    },
    {
      project: 'Website',
      category: 'Backend',
      summary: 'Search ignores accented letters',
      description: 'Searching for "cafe" does not find "café".',
      reporter: 'alice',
      handler: 'administrator',
      status: 'acknowledged',
      severity: 'feature',
      priority: 'normal',
      notes: [],
    },
  ],
  /** The first issue is related to the third. */
  relationships: [{ from: 0, type: 'related to', to: 2 }],
} as const;
