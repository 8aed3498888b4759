/**
 * Must be the first import of every extension entry point. zod probes `new Function` when it is
 * first used; MV3's CSP reports that probe as a violation, so turn the JIT off before any module
 * (the ACP SDK included) builds a schema.
 */
import { config } from 'zod';

config({ jitless: true });
