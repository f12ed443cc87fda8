/**
 * The API contract in TypeScript terms. `schema.d.ts` is generated from the back end's OpenAPI schema
 * (`openapi.json`, see the README); this module reads it: a schema by name, and for a route what it
 * takes (path and query parameters, body) and what it answers. URLs are built with `apiUrl`, which
 * remembers the route, so `http.ts` gives each answer its route's type and refuses a body or a
 * parameter the route does not declare.
 */
import type { components, paths } from './schema';

/** Every schema of the API by name, e.g. `Schemas['CaptureOut']`. */
export type Schemas = components['schemas'];

/** A route as the OpenAPI schema names it, e.g. `/api/captures/{capture_id}`. */
export type Route = keyof paths;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Operation<R extends Route, M extends Method> = Exclude<paths[R][M], undefined>;

/** The routes that take method M. */
export type RouteOf<M extends Method> = { [R in Route]: paths[R][M] extends undefined ? never : R }[Route];

type Success<Answers> = Answers extends { 200: infer A }
  ? A
  : Answers extends { 201: infer A }
    ? A
    : Answers extends { 202: infer A }
      ? A
      : Answers extends { 204: infer A }
        ? A
        : never;

type JsonOf<A> = A extends { content: { 'application/json': infer Body } } ? Body : undefined;

/** What route R answers method M with when it succeeds: its JSON body (undefined for 204). */
export type Answer<R extends Route, M extends Method> = JsonOf<Success<Operation<R, M>['responses']>>;

/** The JSON body route R takes with method M; undefined when it takes none. */
export type RequestBody<R extends Route, M extends Method> =
  Operation<R, M> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : undefined;

type PathParams<R extends Route> = {
  [M in Method]: paths[R][M] extends { parameters: { path: infer P } } ? P : never;
}[Method];

/** The names of the query parameters route R declares for method M. */
export type QueryName<R extends Route, M extends Method = 'get'> =
  Operation<R, M> extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : keyof NonNullable<Q> & string) : never;

/**
 * URLSearchParams that take only the parameters route R declares (for method M): a misspelt name,
 * or one the back end dropped, does not compile. For a union of routes, the parameters they all
 * take. Values are written as URLSearchParams writes them.
 */
export interface RouteQuery<R extends Route, M extends Method = 'get'> {
  set(name: QueryName<R, M>, value: string): void;
  append(name: QueryName<R, M>, value: string): void;
  get(name: QueryName<R, M>): string | null;
  has(name: QueryName<R, M>): boolean;
  toString(): string;
}

/** Parameters for route R, starting with `init`'s (in its order; one left undefined is left out). */
export function routeQuery<R extends Route, M extends Method = 'get'>(init: { [K in QueryName<R, M>]?: string } = {}): RouteQuery<R, M> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries<string | undefined>(init)) if (value !== undefined) query.set(name, value);
  return query;
}

declare const routeMark: unique symbol;

/** A URL of route R: the path with its parameters filled in, and a query. */
export type ApiUrl<R extends Route> = string & { readonly [routeMark]: R };

type UrlArgs<R extends Route> = [PathParams<R>] extends [never]
  ? [query?: NoInfer<RouteQuery<R, Method>>]
  : [path: PathParams<R>, query?: NoInfer<RouteQuery<R, Method>>];

/**
 * The URL of route R: `apiUrl('/api/captures/{capture_id}', { capture_id: 4 })`, or
 * `apiUrl('/api/flame', query)`. Path parameters are URI-encoded.
 */
export function apiUrl<R extends Route>(route: R, ...args: UrlArgs<R>): ApiUrl<R> {
  const hasPath = route.includes('{');
  const path = (hasPath ? args[0] : undefined) as Record<string, string | number> | undefined;
  const query = (hasPath ? args[1] : args[0]) as RouteQuery<R, Method> | undefined;
  const filled = route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = path?.[name];
    if (value === undefined) throw new Error(`apiUrl(${route}): no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const search = query?.toString() ?? '';
  return (search ? `${filled}?${search}` : filled) as ApiUrl<R>;
}

/**
 * The members of a generated union, in the order written, for the places that list them (a select,
 * a URL value checked against them). The record must name each member once: a member the back end
 * adds or drops is a compile error here, not a silent gap.
 */
export function membersOf<U extends string>(all: Record<U, true>): readonly U[] {
  return Object.keys(all) as U[];
}
