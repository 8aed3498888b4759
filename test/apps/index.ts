/**
 * The real web apps the connector tests and benches run against. Each start function installs
 * the app's Debian packages when missing (as root; otherwise it fails naming the command), seeds
 * it in a temp dir and starts it on a free loopback port.
 */
export { startFossil, ensureFossil, type FossilApp } from './fossil';
export { startRedmine, ensureRedmine, type RedmineApp } from './redmine';
export { startDokuWiki, ensureDokuWiki } from './dokuwiki';
export { startMantisBT, ensureMantisBT, type MantisApp, type MantisFault, type SeededMantisIssue } from './mantisbt';
export { installCommand, type AppUser, type RunningApp } from './common';
export { FOSSIL_SEED, REDMINE_SEED, DOKUWIKI_SEED, MANTISBT_SEED } from './seed-data';
