/** What a refused call tells the model: what happened, who can change it, what to do instead. */
export const REFUSALS = {
  killSwitch:
    'Refused: the user pressed "Disconnect all". Nothing runs until the user reconnects an agent. Do not retry.',
  exposure:
    'Refused: the user has turned off browser access for this agent (or stopped offering this server). Only the user can turn it back on; do not retry.',
  actMode:
    'Refused: act mode is off, so Tabwright is read-only. Only the user can turn act mode on in Tabwright settings; ask them if this action is needed. Read tools still work.',
  noTab:
    'There is no web page to work on: the active tab is not an http(s) page. Open one with new_tab or navigate (if allowed), or ask the user to switch tabs.',
  screenshotsOff:
    'Refused: screenshots are off. Only the user can turn them on in Tabwright settings; use snapshot to read the page instead.',
  screenshotsNotGranted:
    'Refused: screenshots are on in Tabwright but Chrome has not granted access to capture pages. Ask the user to turn screenshots off and on again in Tabwright settings.',
  denied: 'Refused: the user denied this action. Do not retry it; ask the user what they want instead.',
  timeout: 'Refused: the user did not confirm this action in time. Ask the user before trying again.',
  pageMoved: (now: string) =>
    `Refused: while the user was being asked, the tab moved to ${now}, so their answer no longer applies. Nothing was done. Call snapshot and try again.`,
} as const;
