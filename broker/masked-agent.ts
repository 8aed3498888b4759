/**
 * What the panel hears from a fronted agent, masked: every error it answers (message and data, the
 * stderr tail the broker adds among them), who it says it is and how it signs in. An agent echoes
 * what it was started with — an API key in a refused request, the credential in its MCP
 * configuration — and the panel shows errors in the chat and keeps them in its saved history, so
 * nothing of it may arrive in clear.
 *
 * Only text meant for people is masked: ids the panel sends back (a sign-in method's, a mode's) stay
 * as the agent gave them, or choosing one would name something the agent never offered.
 */
import { RequestError, type AuthMethod } from '@agentclientprotocol/sdk/unstable';
import type { AgentIdentity, FrontedAgent } from './fronted-agent';
import { maskDeep, type Mask } from './secret-mask';

/** The error as the panel may see it. */
export function maskedError(error: unknown, mask: Mask): Error {
  if (error instanceof RequestError)
    return new RequestError(error.code, mask(error.message), maskDeep(error.data, mask));
  return new Error(mask(error instanceof Error ? error.message : String(error)));
}

/** A sign-in method's words masked (its name, description, arguments, the command spelled out); its id kept. */
function maskedMethod(method: AuthMethod, mask: Mask): AuthMethod {
  const { id, ...words } = method;
  return { ...maskDeep(words, mask), id } as AuthMethod;
}

function maskedIdentity(identity: AgentIdentity, mask: Mask): AgentIdentity {
  const { name, title } = identity.agentInfo;
  return {
    ...identity,
    agentInfo: { ...identity.agentInfo, name: mask(name), ...(title ? { title: mask(title) } : {}) },
    ...(identity.authMethods ? { authMethods: identity.authMethods.map((method) => maskedMethod(method, mask)) } : {}),
  };
}

export function maskedAgent(agent: FrontedAgent, mask: Mask): FrontedAgent {
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw maskedError(error, mask);
    }
  };
  const { setMode, setConfigOption, end, authenticate } = agent;
  return {
    describe: (request) => guarded(() => agent.describe(request)).then((identity) => maskedIdentity(identity, mask)),
    start: (session) => guarded(() => agent.start(session)),
    restore: (session) => guarded(() => agent.restore(session)),
    prompt: (session, prompt, signal) => guarded(() => agent.prompt(session, prompt, signal)),
    discard: (session) => guarded(() => agent.discard(session)),
    close: () => guarded(() => agent.close()),
    // Optional methods stay absent when the agent has none: the host answers "method not found" then.
    ...(setMode && { setMode: (session, modeId) => guarded(() => setMode.call(agent, session, modeId)) }),
    ...(setConfigOption && {
      setConfigOption: (session, request) => guarded(() => setConfigOption.call(agent, session, request)),
    }),
    ...(end && { end: (session) => guarded(() => end.call(agent, session)) }),
    ...(authenticate && { authenticate: (request) => guarded(() => authenticate.call(agent, request)) }),
  };
}
