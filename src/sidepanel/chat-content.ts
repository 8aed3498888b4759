/** Turns ACP content (content blocks, tool call content, raw values) into the transcript's views. */
import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import type { MediaView, ToolContentView } from './chat-types';
import { t } from './i18n';

/** Raster images only: an inline SVG is a document, not a picture. */
const SHOWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const MAX_PREVIEW_CHARS = 20_000;

export function mediaOf(block: ContentBlock): MediaView | undefined {
  switch (block.type) {
    case 'text':
      return undefined;
    case 'image':
      if (SHOWN_IMAGES.has(block.mimeType.toLowerCase()) && /^[A-Za-z0-9+/=\s]*$/.test(block.data)) {
        return { type: 'image', mimeType: block.mimeType.toLowerCase(), data: block.data.replace(/\s/g, '') };
      }
      return { type: 'resource', uri: block.uri ?? '', mimeType: block.mimeType };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType, bytes: Math.floor((block.data.length * 3) / 4) };
    case 'resource_link':
      return {
        type: 'link',
        uri: block.uri,
        name: block.title ?? block.name,
        ...(block.description ? { description: block.description } : {}),
      };
    case 'resource': {
      const resource = block.resource;
      return {
        type: 'resource',
        uri: resource.uri,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
        ...('text' in resource ? { text: capText(resource.text) } : {}),
      };
    }
    default:
      return undefined;
  }
}

export function textOfBlock(block: ContentBlock): string | undefined {
  return block.type === 'text' ? block.text : undefined;
}

export function toolContentOf(content: readonly ToolCallContent[] | null | undefined): ToolContentView[] {
  const views: ToolContentView[] = [];
  for (const item of content ?? []) {
    if (item.type === 'content') {
      const text = textOfBlock(item.content);
      if (text !== undefined) views.push({ type: 'text', text: capText(text) });
      else {
        const media = mediaOf(item.content);
        if (media) views.push({ type: 'media', media });
      }
    } else if (item.type === 'diff') {
      views.push({
        type: 'diff',
        path: item.path,
        newText: capText(item.newText),
        ...(item.oldText != null ? { oldText: capText(item.oldText) } : {}),
      });
    } else if (item.type === 'terminal') {
      views.push({ type: 'terminal', terminalId: item.terminalId });
    }
  }
  return views;
}

/** Pretty JSON of a raw value for a collapsed card, capped so a huge payload cannot stall the panel. */
export function jsonPreview(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return capText(text);
}

export function capText(text: string, max = MAX_PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n${t('moreCharacters', String(text.length - max))}`;
}
