/**
 * Serves the panel's MCP servers over the ACP socket it opened, over both tunnels at once.
 * Both arrive as `mcp/message`; a frame with `connectionId` is the OpenAB tunnel, one
 * with `serverId` is the ACP SDK binding (handled by the SDK's provider).
 */
import {
  McpOverAcpProvider,
  McpProtocolError,
  RequestError,
  type ClientApp,
  type ClientConnection,
  type McpMessageRequestContext,
  type McpServerRegistration,
} from '@agentclientprotocol/sdk/unstable';
import { isJsonObject, PARAMS_NOT_OBJECT } from '../contract/acp';
import { OpenAbTunnel, type DeclaredServer } from './openab-tunnel';
import { answerMcpRequest, McpMethodError } from './mcp-core';

/** Calls finish or abort before OpenAB's 180 s tunnel timeout. */
export const CALL_DEADLINE_MS = 165_000;

export const Raw = {
  parse(value: unknown): Record<string, unknown> {
    if (value === undefined || value === null) return {};
    if (!isJsonObject(value)) throw RequestError.invalidParams(undefined, PARAMS_NOT_OBJECT);
    return value;
  },
};

export interface TunnelOptions {
  declared(): readonly DeclaredServer[];
  mintId(): string;
  deadlineMs?: number;
}

export class McpTunnel {
  readonly openAb: OpenAbTunnel;
  readonly #provider = new McpOverAcpProvider();
  #registrations: McpServerRegistration[] = [];
  #connection: ClientConnection | undefined;

  constructor(private readonly options: TunnelOptions) {
    this.openAb = new OpenAbTunnel({
      declared: options.declared,
      mintConnectionId: options.mintId,
      deadlineMs: options.deadlineMs ?? CALL_DEADLINE_MS,
    });
  }

  /** Registers the tunnel's methods on an app before it connects. */
  install(app: ClientApp): ClientApp {
    return app
      .onRequest('mcp/connect', Raw, ({ params }) => this.openAb.connect(params))
      .onRequest('mcp/disconnect', Raw, ({ params }) => this.openAb.disconnect(params))
      .onRequest('mcp/message', Raw, (context) => {
        const { params } = context;
        if ('connectionId' in params) return this.openAb.message(params, context.requestId, context.signal);
        if ('serverId' in params) return this.#provider.handleRequest(context as unknown as McpMessageRequestContext);
        throw RequestError.invalidParams(undefined, 'mcp/message needs a connectionId or a serverId');
      })
      .onNotification('mcp/message', Raw, ({ params }) => this.openAb.notification(params))
      .onNotification('mcp/cancel', Raw, ({ params }) => this.openAb.cancel(params));
  }

  /** Binds the ACP SDK binding's registrations to a fresh connection; ids persist, registrations do not. */
  attach(connection: ClientConnection): void {
    this.#connection = connection;
    this.#registrations = this.options.declared().map(({ acpId, server }) =>
      this.#provider.registerServer(connection.agent, {
        name: server.name,
        serverId: acpId,
        handler: async (operation) => {
          try {
            return {
              result: await answerMcpRequest(server, operation.method, operation.params, {
                signal: AbortSignal.any([
                  operation.signal,
                  AbortSignal.timeout(this.options.deadlineMs ?? CALL_DEADLINE_MS),
                ]),
                requestId: operation.requestId,
                stateless: true,
              }),
            };
          } catch (error) {
            if (error instanceof McpMethodError) throw new McpProtocolError(error.code, error.message, error.data);
            throw error;
          }
        },
      }),
    );
  }

  /** Tells every open OpenAB-tunnel connection of a server that its tool list changed. */
  async announceListChanged(acpId: string): Promise<void> {
    const agent = this.#connection?.agent;
    if (!agent) return;
    await Promise.all(
      this.openAb
        .connectionsTo(acpId)
        .map((connectionId) =>
          agent
            .notify('mcp/message', { connectionId, method: 'notifications/tools/list_changed' })
            .catch(() => undefined),
        ),
    );
  }

  close(): void {
    this.openAb.close();
    for (const registration of this.#registrations) void registration.dispose();
    this.#registrations = [];
    this.#connection = undefined;
  }
}
