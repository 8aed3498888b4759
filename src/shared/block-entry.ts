/**
 * One entry of the high-risk blocklist as it is shipped and stored: a name, a category and the
 * rules it matches. The settings keep the user's own entries in this shape; how rules match is
 * `mcp-server/gates/blocklist.ts`.
 */
import { z } from 'zod';

export const BlockCategory = z.enum([
  'banking',
  'payments',
  'cloud-console',
  'password-manager',
  'identity',
  'account-settings',
  'custom',
]);
export type BlockCategory = z.infer<typeof BlockCategory>;

export const BlockEntry = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  category: BlockCategory,
  match: z.array(z.string().min(1)).min(1),
});
export type BlockEntry = z.infer<typeof BlockEntry>;
