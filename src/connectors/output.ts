/**
 * Building blocks for connector tools' output schemas: what the extraction steps give back. A
 * field read from the page is text, or null when the page did not have it; `pick: 'number'` is a
 * number or null; `pick: 'href'` an absolute URL or null.
 */
import { z } from 'zod';

export const pageText = z.string().nullable();
export const pageNumber = z.number().nullable();
export const pageUrl = z.string().nullable();
