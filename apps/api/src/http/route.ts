import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { DEFAULT_BODY_LIMIT, ErrorReply, type OfficeAccess, type Role, routes, type RouteName, type RouteReply } from '@survey-bird/contracts';
import type { ActorOf, AuthContext } from '../plugins/auth.js';
import { NUL_IN_TEXT, badRequest, containsNul } from './errors.js';
import { bodyIsNulFree } from './json-body.js';

type Def<N extends RouteName> = (typeof routes)[N];
type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Field<N extends RouteName, K extends string> = Def<N> extends Record<K, infer S> ? Out<S> : undefined;

export type RouteRequest<N extends RouteName> = Omit<FastifyRequest, 'body' | 'query' | 'params'> & {
  body: Field<N, 'body'>;
  query: Field<N, 'querystring'>;
  params: Field<N, 'params'>;
};
/**
 * The actor a route's handler receives: the union members its `access` lists (the auth plugin
 * refused every other caller before the body was read); for 'user' access, any signed-in account.
 */
type AuthOf<N extends RouteName> = Def<N>['access'] extends readonly (infer R extends Role)[] ? AuthContext & { actor: ActorOf<R> } : AuthContext;
/** The caller of a route whose access is not public. */
export type Authed<N extends RouteName> = RouteRequest<N> & { auth: AuthOf<N> };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the contracts table: its parameters the request log redacts (http/request-log.ts). */
    sensitive?: readonly string[];
  }
}

export interface RouteOptions {
  /** Runs on the parsed body before schema validation: a cheap bound checked before any per-key work. */
  beforeValidation?: (request: FastifyRequest) => void;
}

type Handler<N extends RouteName> = (request: Authed<N>, reply: FastifyReply) => Promise<RouteReply<N> | FastifyReply>;

/** Registers the handler for a route of the contracts table, with its schemas and access check. */
export function route<N extends RouteName>(app: FastifyInstance, name: N, handler: Handler<N>, options: RouteOptions = {}): void {
  const def = routes[name] as Def<N> & { office?: OfficeAccess; params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; headers?: z.ZodType; reply?: z.ZodType; multipart?: boolean; bodyLimit?: number; sensitive?: readonly string[]; token?: 'bearer' | 'basic' };
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    // Fastify counts the bytes as they arrive and stops reading past this (413), before parsing.
    bodyLimit: def.bodyLimit ?? DEFAULT_BODY_LIMIT,
    config: { sensitive: def.sensitive ?? [] },
    schema: {
      operationId: name,
      summary: def.summary,
      tags: [def.path.split('/')[3] ?? 'api'],
      ...(def.access === 'public' ? {} : { security: def.token === 'basic' ? [{ bearer: [] }, { apiToken: [] }, { odataBasic: [] }] : def.token ? [{ bearer: [] }, { apiToken: [] }] : [{ bearer: [] }] }),
      ...(def.params ? { params: def.params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.headers ? { headers: def.headers } : {}),
      response: def.reply ? { 200: def.reply, '4xx': ErrorReply, '5xx': ErrorReply } : { '4xx': ErrorReply, '5xx': ErrorReply },
    },
    // onRequest: who may call is settled before the body is even read.
    onRequest: app.authorize(def.access, def.office, def.token),
    preValidation: async (request) => {
      if (containsNul(request.params) || containsNul(request.query) || (!bodyIsNulFree(request) && containsNul(request.body))) throw badRequest(NUL_IN_TEXT);
      options.beforeValidation?.(request);
    },
    handler: (request, reply) => handler(request as unknown as Authed<N>, reply) as Promise<unknown>,
  });
}
