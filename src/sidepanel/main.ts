import '../zod-setup';
import { startPanel } from './panel';

startPanel().catch((error: unknown) => {
  console.error('Tabwright panel failed to start', error);
  const main = document.getElementById('main');
  if (main) main.textContent = `Tabwright could not start: ${(error as Error)?.message ?? String(error)}`;
});
