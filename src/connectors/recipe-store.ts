/**
 * Imported recipes, kept in local storage under their own key (they can be larger than synced
 * settings allow). Stored documents are checked again on load: one that no longer reads is
 * reported and kept, never silently dropped.
 */
import type { StorageArea } from '../shared/stores';
import type { Recipe } from './recipe/schema';
import { checkRecipe } from './recipe/validate';

const KEY = 'connector-recipes';

export interface LoadedRecipes {
  recipes: Recipe[];
  problems: string[];
}

export class RecipeStore {
  #raw: unknown[] = [];

  constructor(private readonly area: StorageArea) {}

  async load(): Promise<LoadedRecipes> {
    const { [KEY]: stored } = await this.area.get([KEY]);
    this.#raw = Array.isArray(stored) ? stored : [];
    const recipes: Recipe[] = [];
    const problems: string[] = [];
    for (const raw of this.#raw) {
      const check = checkRecipe(raw);
      if (check.ok) recipes.push(check.recipe);
      else {
        const id = (raw as { id?: unknown })?.id;
        problems.push(
          `The stored recipe ${typeof id === 'string' ? id : '(no id)'} no longer reads: ${check.errors[0]}`,
        );
      }
    }
    return { recipes, problems };
  }

  /** Adds or replaces (same id) a recipe. */
  async put(recipe: Recipe): Promise<void> {
    this.#raw = [...this.#raw.filter((raw) => (raw as { id?: unknown })?.id !== recipe.id), recipe];
    await this.area.set({ [KEY]: this.#raw });
  }

  async remove(id: string): Promise<void> {
    this.#raw = this.#raw.filter((raw) => (raw as { id?: unknown })?.id !== id);
    await this.area.set({ [KEY]: this.#raw });
  }
}
