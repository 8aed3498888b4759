/**
 * The task suite: everyday tasks on pages built from real component libraries and on native
 * controls, each one short plan (find by role and name, act) and the state it must leave,
 * read through the library's own API where it has one. Pages: test/fixtures/tasks/.
 */
import type { Task, TaskFile } from './tasks-plan';

const NOTES: TaskFile = { name: 'notes.txt', mimeType: 'text/plain', text: 'Agenda: budget, hiring.\n' };
const RECEIPT: TaskFile = { name: 'receipt.txt', mimeType: 'text/plain', text: 'Taxi, 18.40 EUR\n' };
const INVOICE: TaskFile = { name: 'invoice-0042.pdf', mimeType: 'application/pdf', text: '%PDF-1.4\n%%EOF\n' };

const field = (name: string) => `document.querySelector('[name=${name}]').value`;

const native = (task: Omit<Task, 'library' | 'page' | 'ready'>): Task => ({
  library: 'native',
  page: '/tasks/native.html',
  ready: 'window.tasks',
  ...task,
});

const MATERIAL_READY = `['md-filled-button', 'md-checkbox', 'md-outlined-select', 'md-select-option',
  'md-outlined-text-field', 'md-slider'].every((name) => customElements.get(name))`;
const SHOELACE_READY = `['sl-button', 'sl-checkbox', 'sl-select', 'sl-option', 'sl-input']
  .every((name) => customElements.get(name))`;

const IONIC_READY = `['ion-select', 'ion-select-option', 'ion-popover', 'ion-toggle', 'ion-item']
  .every((name) => customElements.get(name)) && window.tasks`;
const CARBON_READY = `['cds-dropdown', 'cds-dropdown-item', 'cds-modal', 'cds-button']
  .every((name) => customElements.get(name)) && window.tasks`;

export const TASKS: Task[] = [
  native({
    id: 'native-date',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Birthday' }, text: '2024-05-31' }],
    state: field('birthday'),
    expected: '2024-05-31',
  }),
  native({
    id: 'native-time',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Alarm' }, text: '07:45' }],
    state: field('alarm'),
    expected: '07:45',
  }),
  native({
    id: 'native-datetime-local',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Meeting' }, text: '2024-05-31T14:30' }],
    state: field('meeting'),
    expected: '2024-05-31T14:30',
  }),
  native({
    id: 'native-month',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Billing month' }, text: '2024-06' }],
    state: field('billing'),
    expected: '2024-06',
  }),
  native({
    id: 'native-week',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Sprint week' }, text: '2024-W22' }],
    state: field('sprint'),
    expected: '2024-W22',
  }),
  native({
    id: 'native-color',
    needs: ['native input'],
    // Chromium's accessibility tree calls a colour input a button, Playwright's snapshot a textbox.
    steps: [{ do: 'type', on: { role: ['button', 'textbox'], name: 'Theme colour' }, text: '#1a2b3c' }],
    state: field('theme'),
    expected: '#1a2b3c',
  }),
  native({
    id: 'native-range',
    needs: ['native input'],
    steps: [{ do: 'press_key', on: { role: 'slider', name: 'Volume' }, key: 'ArrowRight' }],
    state: field('volume'),
    expected: '5',
  }),
  native({
    id: 'native-number',
    needs: ['native input'],
    steps: [{ do: 'press_key', on: { role: 'spinbutton', name: 'Guests' }, key: 'ArrowUp' }],
    state: field('guests'),
    expected: '3',
  }),
  native({
    id: 'native-search',
    needs: ['native input'],
    steps: [{ do: 'type', on: { role: 'searchbox', name: 'Find' }, text: 'running shoes', submit: true }],
    state: 'window.tasks.searched',
    expected: 'running shoes',
  }),
  native({
    id: 'native-contact',
    needs: ['native input'],
    steps: [
      { do: 'type', on: { role: 'textbox', name: 'Email' }, text: 'ada@example.org' },
      { do: 'type', on: { role: 'textbox', name: 'Phone' }, text: '+44 20 7946 0018' },
      { do: 'type', on: { role: 'textbox', name: 'Homepage' }, text: 'https://ada.example.org' },
    ],
    state: `[${field('email')}, ${field('phone')}, ${field('homepage')}]`,
    expected: ['ada@example.org', '+44 20 7946 0018', 'https://ada.example.org'],
  }),
  native({
    id: 'native-hidden-checkbox',
    needs: ['native input'],
    steps: [{ do: 'click', on: { role: 'checkbox', name: 'Subscribe to newsletter' } }],
    state: `document.getElementById('newsletter').checked`,
    expected: true,
  }),
  native({
    id: 'native-file',
    needs: ['upload', 'native input'],
    steps: [{ do: 'upload_file', on: { role: 'button', name: 'Attachment' }, files: [NOTES] }],
    state: `[...document.querySelector('[name=attachment]').files].map((file) => [file.name, file.size])`,
    expected: [['notes.txt', 24]],
  }),
  native({
    id: 'native-alert',
    needs: ['dialog'],
    steps: [{ do: 'click', on: { role: 'button', name: 'Show notice' }, dialog: { accept: true } }],
    state: 'window.tasks.noticeSeen',
    expected: true,
  }),
  native({
    id: 'native-confirm',
    needs: ['dialog'],
    steps: [{ do: 'click', on: { role: 'button', name: 'Delete draft' }, dialog: { accept: true } }],
    state: 'window.tasks.deleted',
    expected: true,
  }),
  native({
    id: 'native-prompt',
    needs: ['dialog'],
    steps: [
      {
        do: 'click',
        on: { role: 'button', name: 'Rename draft' },
        dialog: { accept: true, promptText: 'Q4 plan' },
      },
    ],
    state: `document.getElementById('draft-title').textContent`,
    expected: 'Q4 plan',
  }),

  {
    id: 'material-button',
    library: 'Material Web',
    needs: ['shadow DOM'],
    page: '/tasks/material.html',
    ready: MATERIAL_READY,
    steps: [{ do: 'click', on: { role: 'button', name: 'Save settings' } }],
    state: 'window.tasks.saves',
    expected: 1,
  },
  {
    id: 'material-checkbox',
    library: 'Material Web',
    needs: ['shadow DOM'],
    page: '/tasks/material.html',
    ready: MATERIAL_READY,
    steps: [{ do: 'click', on: { role: 'checkbox', name: 'Email me updates' } }],
    state: `document.getElementById('updates').checked`,
    expected: true,
  },
  {
    id: 'material-text-field',
    library: 'Material Web',
    needs: ['shadow DOM'],
    page: '/tasks/material.html',
    ready: MATERIAL_READY,
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Full name' }, text: 'Ada Lovelace' }],
    state: `document.getElementById('full-name').value`,
    expected: 'Ada Lovelace',
  },
  {
    id: 'material-select',
    library: 'Material Web',
    needs: ['shadow DOM'],
    page: '/tasks/material.html',
    ready: MATERIAL_READY,
    steps: [
      { do: 'click', on: { role: 'combobox', name: 'Country' } },
      { do: 'click', on: { role: 'option', name: 'France' } },
    ],
    state: `document.getElementById('country').value`,
    expected: 'fr',
  },
  {
    id: 'material-slider',
    library: 'Material Web',
    needs: ['shadow DOM', 'native input'],
    page: '/tasks/material.html',
    ready: MATERIAL_READY,
    steps: [{ do: 'press_key', on: { role: 'slider', name: 'Brightness' }, key: 'ArrowRight' }],
    state: `document.getElementById('brightness').value`,
    expected: 4,
  },

  {
    id: 'shoelace-input',
    library: 'Shoelace',
    needs: ['shadow DOM'],
    page: '/tasks/shoelace.html',
    ready: SHOELACE_READY,
    steps: [{ do: 'type', on: { role: 'textbox', name: 'City' }, text: 'Lyon' }],
    state: `document.getElementById('city').value`,
    expected: 'Lyon',
  },
  {
    id: 'shoelace-select',
    library: 'Shoelace',
    needs: ['shadow DOM'],
    page: '/tasks/shoelace.html',
    ready: SHOELACE_READY,
    steps: [
      { do: 'click', on: { role: 'combobox', name: 'Shirt size' } },
      { do: 'click', on: { role: 'option', name: 'Medium' } },
    ],
    state: `document.getElementById('size').value`,
    expected: 'm',
  },
  {
    id: 'shoelace-checkbox',
    library: 'Shoelace',
    needs: ['shadow DOM'],
    page: '/tasks/shoelace.html',
    ready: SHOELACE_READY,
    steps: [{ do: 'click', on: { role: 'checkbox', name: 'Gift wrap' } }],
    state: `document.getElementById('gift').checked`,
    expected: true,
  },
  {
    id: 'shoelace-button',
    library: 'Shoelace',
    needs: ['shadow DOM'],
    page: '/tasks/shoelace.html',
    ready: SHOELACE_READY,
    steps: [{ do: 'click', on: { role: 'button', name: 'Place order' } }],
    state: 'window.tasks.orders',
    expected: 1,
  },

  {
    id: 'flatpickr-typed',
    library: 'Flatpickr',
    needs: ['native input'],
    page: '/tasks/flatpickr.html',
    ready: 'window.pickers',
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Departure' }, text: '2024-05-31', submit: true }],
    state: `pickers.departure.selectedDates.map((date) => pickers.departure.formatDate(date, 'Y-m-d'))`,
    expected: ['2024-05-31'],
  },
  {
    id: 'flatpickr-calendar',
    library: 'Flatpickr',
    needs: ['native input'],
    page: '/tasks/flatpickr.html',
    ready: 'window.pickers',
    steps: [
      { do: 'click', on: { role: 'textbox', name: 'Return' } },
      { do: 'click', on: { role: ['gridcell', 'generic', 'button'], name: 'June 15, 2024' } },
    ],
    state: `pickers.back.selectedDates.map((date) => pickers.back.formatDate(date, 'Y-m-d'))`,
    expected: ['2024-06-15'],
  },

  {
    id: 'tom-select-single',
    library: 'Tom Select',
    needs: [],
    page: '/tasks/tom-select.html',
    ready: 'window.selects',
    steps: [{ do: 'type', on: { role: 'combobox', name: 'City' }, text: 'Lyo', submit: true }],
    state: 'selects.city.getValue()',
    expected: 'lyon',
  },
  {
    id: 'tom-select-create',
    library: 'Tom Select',
    needs: [],
    page: '/tasks/tom-select.html',
    ready: 'window.selects',
    steps: [{ do: 'type', on: { role: 'combobox', name: 'Tags' }, text: 'urgent', submit: true }],
    state: 'selects.tags.getValue()',
    expected: 'urgent',
  },

  {
    id: 'quill-type',
    library: 'Quill',
    needs: [],
    page: '/tasks/quill.html',
    ready: 'window.quill',
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Message' }, text: 'Hello from the suite' }],
    state: 'quill.getText()',
    expected: 'Hello from the suite\n',
  },
  {
    id: 'ace-type',
    library: 'Ace',
    needs: [],
    page: '/tasks/ace.html',
    ready: 'window.editor',
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Cursor at row 1' }, text: 'SELECT 1' }],
    state: 'editor.getValue()',
    expected: 'SELECT 1',
  },

  {
    id: 'sortable-reorder',
    library: 'SortableJS',
    needs: ['drag'],
    page: '/tasks/sortable.html',
    ready: 'window.lists',
    steps: [{ do: 'drag', on: { role: 'button', name: 'Move Delta' }, to: { role: 'button', name: 'Move Alpha' } }],
    state: 'lists.backlog.toArray()',
    expected: ['delta', 'alpha', 'bravo', 'charlie'],
  },
  {
    id: 'sortable-between-lists',
    library: 'SortableJS',
    needs: ['drag'],
    page: '/tasks/sortable.html',
    ready: 'window.lists',
    steps: [
      {
        do: 'drag',
        on: { role: 'button', name: 'Move Call supplier' },
        to: { role: 'button', name: 'Move Book venue' },
      },
    ],
    state: '[lists.todo.toArray(), lists.done.toArray().sort()]',
    expected: [['write'], ['book', 'call']],
  },
  {
    id: 'filepond-upload',
    library: 'FilePond',
    needs: ['upload'],
    page: '/tasks/filepond.html',
    ready: `window.pond && document.querySelector('.filepond--browser')`,
    steps: [{ do: 'upload_file', on: { role: 'button', name: 'Drag & Drop your files or Browse' }, files: [RECEIPT] }],
    state: 'pond.getFiles().map((item) => [item.filename, item.fileSize])',
    expected: [['receipt.txt', 16]],
  },

  {
    id: 'headless-menu-confirm',
    library: 'Headless UI',
    needs: ['dialog'],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [
      { do: 'click', on: { role: 'button', name: 'Options' } },
      { do: 'click', on: { role: 'menuitem', name: 'Delete' }, dialog: { accept: true } },
    ],
    state: 'app.deleted',
    expected: true,
  },
  {
    id: 'headless-menu-prompt',
    library: 'Headless UI',
    needs: ['dialog'],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [
      { do: 'click', on: { role: 'button', name: 'Options' } },
      { do: 'click', on: { role: 'menuitem', name: 'Rename' }, dialog: { accept: true, promptText: 'Q4 plan' } },
    ],
    state: 'app.title',
    expected: 'Q4 plan',
  },
  {
    id: 'headless-listbox',
    library: 'Headless UI',
    needs: [],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [
      { do: 'click', on: { role: 'button', name: 'Assignee', prefix: true } },
      { do: 'click', on: { role: 'option', name: 'Grace Hopper' } },
    ],
    state: 'app.assignee',
    expected: 'Grace Hopper',
  },
  {
    id: 'headless-switch',
    library: 'Headless UI',
    needs: [],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [{ do: 'click', on: { role: 'switch', name: 'Enable notifications' } }],
    state: 'app.notifications',
    expected: true,
  },
  {
    id: 'dnd-kit-reorder',
    library: 'dnd-kit',
    needs: ['drag'],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [{ do: 'drag', on: { role: 'button', name: 'Dates' }, to: { role: 'button', name: 'Apples' } }],
    state: 'app.fruits',
    expected: ['Dates', 'Apples', 'Bananas', 'Cherries'],
  },
  {
    id: 'react-dropzone-upload',
    library: 'react-dropzone',
    needs: ['upload'],
    page: '/tasks/react.html',
    ready: 'window.app',
    steps: [{ do: 'upload_file', on: { role: 'button', name: 'Upload invoices' }, files: [INVOICE] }],
    state: 'app.invoices.map((file) => [file.name, file.type])',
    expected: [['invoice-0042.pdf', 'application/pdf']],
  },

  {
    id: 'tabulator-select-row',
    library: 'Tabulator',
    needs: ['clickable by script'],
    page: '/tasks/tabulator.html',
    ready: 'window.grid',
    steps: [{ do: 'click', on: { role: 'gridcell', name: 'PO-1003' } }],
    state: 'grid.getSelectedData().map((row) => row.po)',
    expected: ['PO-1003'],
  },
  {
    id: 'tabulator-sort',
    library: 'Tabulator',
    needs: ['clickable by script'],
    page: '/tasks/tabulator.html',
    ready: 'window.grid',
    steps: [{ do: 'click', on: { role: 'columnheader', name: 'Quantity' } }],
    state: 'grid.getSorters().map((sorter) => [sorter.field, sorter.dir])',
    expected: [['quantity', 'asc']],
  },
  {
    id: 'fomantic-hover-menu',
    library: 'Fomantic UI',
    needs: ['hover', 'clickable by script'],
    page: '/tasks/fomantic.html',
    ready: 'window.menus',
    steps: [
      { do: 'hover', on: { role: ['generic', 'listbox', 'combobox'], name: 'File' } },
      { do: 'click', on: { role: ['generic', 'option', 'menuitem'], name: 'Export as PDF' } },
    ],
    state: 'menus.file()',
    expected: 'export',
  },
  {
    id: 'tippy-hover-menu',
    library: 'Tippy.js',
    needs: ['hover', 'clickable by script'],
    page: '/tasks/tippy.html',
    ready: 'window.menu',
    steps: [
      { do: 'hover', on: { role: 'button', name: 'Share' } },
      { do: 'click', on: { role: ['listitem', 'generic'], name: 'Email' } },
    ],
    state: 'menu.chosen',
    expected: ['Email'],
  },

  {
    id: 'fomantic-search-select',
    library: 'Fomantic UI',
    needs: ['clickable by script'],
    page: '/tasks/fomantic.html',
    ready: 'window.menus',
    steps: [
      { do: 'click', on: { role: ['textbox', 'combobox'], name: 'Department' } },
      { do: 'click', on: { role: ['generic', 'option'], name: 'Logistics' } },
    ],
    state: 'menus.department()',
    expected: 'logistics',
  },
  {
    id: 'monaco-type',
    library: 'Monaco',
    needs: ['EditContext'],
    page: '/tasks/monaco.html',
    ready: 'window.editor',
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Query editor' }, text: 'SELECT 1' }],
    state: 'editor.getValue()',
    expected: 'SELECT 1',
  },
  {
    id: 'monaco-lines',
    library: 'Monaco',
    needs: ['EditContext'],
    page: '/tasks/monaco.html',
    ready: 'window.editor',
    steps: [{ do: 'type', on: { role: 'textbox', name: 'Query editor' }, text: 'SELECT id\nFROM orders' }],
    state: 'editor.getValue()',
    expected: 'SELECT id\nFROM orders',
  },

  // Data grids and jQuery-era plugins
  {
    id: 'datatables-select-row',
    library: 'DataTables',
    needs: ['clickable by script'],
    page: '/tasks/datatables.html',
    ready: 'window.staff',
    steps: [{ do: 'click', on: { role: ['cell', 'row', 'generic'], name: 'Ashton Cox', unmarked: true } }],
    state: 'staff.rows({ selected: true }).data().toArray().map((row) => row[0])',
    expected: ['Ashton Cox'],
  },
  {
    id: 'datatables-next-page',
    library: 'DataTables',
    needs: [],
    page: '/tasks/datatables.html',
    ready: 'window.staff',
    steps: [{ do: 'click', on: { role: ['button', 'link'], name: 'Next' } }],
    state: 'staff.page.info().page',
    expected: 1,
  },
  {
    id: 'ag-grid-edit-cell',
    library: 'AG Grid',
    needs: ['clickable by script'],
    page: '/tasks/ag-grid.html',
    ready: 'window.stock',
    steps: [
      { do: 'click', on: { role: 'gridcell', name: '206' }, double: true },
      { do: 'type', on: { role: ['spinbutton', 'textbox'], name: 'Input Editor' }, text: '250', submit: true },
    ],
    state: `stock.getRowNode('SKU-2003').data.quantity`,
    expected: 250,
  },
  {
    id: 'ag-grid-select-offscreen',
    library: 'AG Grid',
    needs: ['clickable by script'],
    page: '/tasks/ag-grid.html',
    ready: 'window.stock',
    steps: [{ do: 'click', on: { role: 'gridcell', name: 'SKU-2015' } }],
    state: 'stock.getSelectedRows().map((row) => row.sku)',
    expected: ['SKU-2015'],
  },
  {
    id: 'bootstrap-dropdown',
    library: 'Bootstrap',
    needs: [],
    page: '/tasks/bootstrap.html',
    ready: 'window.project',
    steps: [
      { do: 'click', on: { role: 'button', name: 'Actions' } },
      { do: 'click', on: { role: 'link', name: 'Archive' } },
    ],
    state: '[project.action, project.menu._isShown()]',
    expected: ['archive', false],
  },
  {
    id: 'bootstrap-modal-confirm',
    library: 'Bootstrap',
    needs: [],
    page: '/tasks/bootstrap.html',
    ready: 'window.project',
    steps: [
      { do: 'click', on: { role: 'button', name: 'Delete project' } },
      { do: 'click', on: { role: 'button', name: 'Delete' } },
    ],
    state: '[project.deleted, project.modal._isShown]',
    expected: [true, false],
  },
  {
    id: 'jquery-ui-datepicker',
    library: 'jQuery UI',
    needs: ['clickable by script'],
    page: '/tasks/jquery-ui.html',
    ready: 'window.release',
    steps: [
      { do: 'click', on: { role: 'textbox', name: 'Delivery date' } },
      { do: 'click', on: { role: ['generic', 'link', 'button'], name: 'Next' } },
      { do: 'click', on: { role: 'link', name: '14' } },
    ],
    state: 'release.delivery()',
    expected: '2024-06-14',
  },
  {
    id: 'jquery-ui-sortable',
    library: 'jQuery UI',
    needs: ['drag', 'clickable by script'],
    page: '/tasks/jquery-ui.html',
    ready: 'window.release',
    steps: [
      {
        do: 'drag',
        on: { role: ['listitem', 'generic'], name: 'Build' },
        to: { role: ['listitem', 'generic'], name: 'Review' },
      },
    ],
    state: 'release.steps()',
    // The plugin moves an item down past another once the pointer is over that item's lower half.
    expected: ['test', 'review', 'build', 'deploy'],
  },

  // Web-component design systems, a calendar and a drag board
  {
    id: 'ionic-select-popover',
    library: 'Ionic',
    needs: ['shadow DOM'],
    page: '/tasks/ionic.html',
    ready: IONIC_READY,
    steps: [
      { do: 'click', on: { role: ['button', 'combobox'], name: 'Priority', prefix: true } },
      { do: 'click', on: { role: ['radio', 'option', 'menuitemradio'], name: 'High' } },
    ],
    state: `document.getElementById('priority').value`,
    expected: 'high',
  },
  {
    id: 'ionic-hover-popover',
    library: 'Ionic',
    needs: ['shadow DOM', 'hover'],
    page: '/tasks/ionic.html',
    ready: IONIC_READY,
    steps: [
      { do: 'hover', on: { role: 'button', name: 'More actions' } },
      { do: 'click', on: { role: ['button', 'listitem', 'generic'], name: 'Close ticket' } },
    ],
    state: 'window.tasks.actions',
    expected: ['close'],
  },
  {
    id: 'carbon-dropdown',
    library: 'Carbon',
    needs: ['shadow DOM'],
    page: '/tasks/carbon.html',
    ready: CARBON_READY,
    steps: [
      { do: 'click', on: { role: 'combobox', name: 'Region' } },
      { do: 'click', on: { role: 'option', name: 'Tokyo' } },
    ],
    state: `document.getElementById('region').value`,
    expected: 'jp-tok',
  },
  {
    id: 'carbon-modal-confirm',
    library: 'Carbon',
    needs: ['shadow DOM'],
    page: '/tasks/carbon.html',
    ready: CARBON_READY,
    steps: [
      { do: 'click', on: { role: 'button', name: 'Delete project' } },
      { do: 'click', on: { role: 'button', name: 'Delete' } },
    ],
    state: `[window.tasks.deleted, document.getElementById('delete-modal').open]`,
    expected: [true, false],
  },
  {
    id: 'fullcalendar-move-event',
    library: 'FullCalendar',
    needs: ['drag', 'clickable by script'],
    page: '/tasks/fullcalendar.html',
    ready: 'window.calendar',
    steps: [
      {
        do: 'drag',
        on: { role: ['generic', 'link', 'button'], name: 'Design review' },
        to: { role: 'gridcell', name: 'June 19, 2024' },
      },
    ],
    state: `calendar.getEventById('review').startStr`,
    expected: '2024-06-19',
  },
  {
    id: 'fullcalendar-create-event',
    library: 'FullCalendar',
    needs: ['dialog', 'clickable by script'],
    page: '/tasks/fullcalendar.html',
    ready: 'window.calendar',
    steps: [
      {
        do: 'click',
        on: { role: 'gridcell', name: 'June 21, 2024' },
        dialog: { accept: true, promptText: 'Team lunch' },
      },
    ],
    state: `calendar.getEvents().filter((event) => event.title === 'Team lunch').map((event) => event.startStr)`,
    expected: ['2024-06-21'],
  },
  {
    id: 'fullcalendar-next-month',
    library: 'FullCalendar',
    needs: [],
    page: '/tasks/fullcalendar.html',
    ready: 'window.calendar',
    steps: [{ do: 'click', on: { role: 'button', name: 'Next month' } }],
    state: `calendar.view.title`,
    expected: 'July 2024',
  },
  {
    id: 'pangea-move-card',
    library: '@hello-pangea/dnd',
    needs: ['drag'],
    page: '/tasks/pangea.html',
    ready: 'window.board',
    steps: [
      {
        do: 'drag',
        on: { role: 'button', name: 'Fix login timeout' },
        to: { role: 'button', name: 'Migrate database' },
      },
    ],
    state: `[board.columns['In progress'], [...board.columns.Done].sort()]`,
    expected: [[], ['Fix login timeout', 'Migrate database']],
  },
  {
    id: 'pangea-reorder',
    library: '@hello-pangea/dnd',
    needs: ['drag'],
    page: '/tasks/pangea.html',
    ready: 'window.board',
    steps: [
      {
        do: 'drag',
        on: { role: 'button', name: 'Update pricing page' },
        to: { role: 'button', name: 'Write release notes' },
      },
    ],
    state: `board.columns['To do']`,
    expected: ['Update pricing page', 'Write release notes'],
  },
];

/** The tasks named in TASKS_ONLY (comma-separated ids), or all of them; an unknown id is an error. */
export function selectedTasks(only = process.env.TASKS_ONLY): Task[] {
  if (!only?.trim()) return TASKS;
  const ids = only
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !TASKS.some((task) => task.id === id));
  if (unknown.length) throw new Error(`TASKS_ONLY names no task: ${unknown.join(', ')}`);
  return TASKS.filter((task) => ids.includes(task.id));
}
