// A table of routes, from which the known paths and each path's allowed methods follow: nothing kept in a second list.
// The API and the panel both route through it; each says how it answers an unknown path or method.
import type { RequestLike } from './transport/answer.ts';

/** A route's path parameters by name, decoded. */
export type Params = Readonly<Record<string, string>>;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One method's answer from the request, its path and query, the caller's context and the path's parameters; undefined is a 404. */
export type Action<C, A, R extends RequestLike = RequestLike> = (
  req: R,
  path: string,
  search: string,
  ctx: C,
  params: Params,
) => A | undefined;

export interface Route<C, A, R extends RequestLike = RequestLike> {
  /**
   * The path: literal segments and `:name` parameters (`:name(regex)` limits one to what the regex matches, a regex
   * without `/` or groups of its own); or with `prefix`, every path that starts with it.
   */
  path: string;
  prefix?: boolean;
  /** Each method's answer; HEAD is GET's (the caller drops its body). */
  methods: Partial<Record<Method, Action<C, A, R>>>;
}

/** The answers the router makes itself. */
export interface RouterAnswers<C, A, R extends RequestLike = RequestLike> {
  notFound(req: R, ctx: C): A;
  /** A method the path does not answer; `allow` lists those it does. */
  notAllowed(req: R, allow: string, ctx: C): A;
  /** OPTIONS on a known path (a CORS preflight), listed in Allow; without it OPTIONS is refused like any other method. */
  options?(req: R, allow: string, ctx: C): A;
}

interface Known<C, A, R extends RequestLike> {
  methods: Route<C, A, R>['methods'];
  /** The Allow header's value, made once. */
  allow: string;
}

interface WithParams<C, A, R extends RequestLike> extends Known<C, A, R> {
  pattern: RegExp;
  names: string[];
}

/** What a route without parameters passes: one object for all of them, so a request to one allocates none. */
const NO_PARAMS: Params = Object.freeze({});

export class Router<C, A, R extends RequestLike = RequestLike> {
  private readonly exact = new Map<string, Known<C, A, R>>();
  private readonly prefixes: (Known<C, A, R> & { path: string })[] = [];
  private readonly withParams: WithParams<C, A, R>[] = [];

  constructor(
    routes: readonly Route<C, A, R>[],
    private readonly answers: RouterAnswers<C, A, R>,
  ) {
    for (const route of routes) {
      const known = { methods: route.methods, allow: allowOf(route.methods, answers.options !== undefined) };
      if (route.prefix) this.prefixes.push({ ...known, path: route.path });
      else if (route.path.includes('/:')) this.withParams.push({ ...known, ...compile(route.path) });
      else this.exact.set(route.path, known);
    }
  }

  /** Whether some route serves this path, whatever the method. */
  has(path: string): boolean {
    return this.find(path) !== undefined;
  }

  /** The Allow value where a route serves this path but not this method (its answer would be a 405); else undefined. */
  refusedMethod(method: string, path: string): string | undefined {
    const found = this.find(path);
    if (found === undefined) return undefined;
    const { methods, allow } = found.known;
    if (method === 'GET' || method === 'HEAD' || Object.hasOwn(methods, method)) return undefined;
    return method === 'OPTIONS' && this.answers.options ? undefined : allow;
  }

  answer(req: R, ctx: C): A {
    const { url, method } = req;
    const path = pathOf(url);
    // Exact paths are one Map lookup and prefixes a short scan: the API's routes never reach the parameters' regexes.
    let known: Known<C, A, R> | undefined = this.exact.get(path) ?? this.prefixOf(path);
    let params = NO_PARAMS;
    if (known === undefined) {
      const found = this.withParamsOf(path);
      if (found === undefined) return this.answers.notFound(req, ctx);
      known = found.known;
      params = found.params;
    }
    const { methods } = known;
    const action =
      method === 'GET' || method === 'HEAD'
        ? methods.GET
        : Object.hasOwn(methods, method)
          ? methods[method as Method]
          : undefined;
    if (action !== undefined)
      return action(req, path, url.slice(path.length), ctx, params) ?? this.answers.notFound(req, ctx);
    if (method === 'OPTIONS' && this.answers.options) return this.answers.options(req, known.allow, ctx);
    return this.answers.notAllowed(req, known.allow, ctx);
  }

  private prefixOf(path: string): Known<C, A, R> | undefined {
    for (const route of this.prefixes) if (path.startsWith(route.path)) return route;
    return undefined;
  }

  private find(path: string): { known: Known<C, A, R>; params: Params } | undefined {
    const known = this.exact.get(path) ?? this.prefixOf(path);
    return known === undefined ? this.withParamsOf(path) : { known, params: NO_PARAMS };
  }

  private withParamsOf(path: string): { known: Known<C, A, R>; params: Params } | undefined {
    for (const route of this.withParams) {
      const match = route.pattern.exec(path);
      if (match === null) continue;
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
      } catch {
        // A malformed escape names nothing: the path is unknown.
        return undefined;
      }
      return { known: route, params };
    }
    return undefined;
  }
}

/** The methods a route answers, for Allow: HEAD with GET, OPTIONS when the router answers it. */
function allowOf(methods: object, options: boolean): string {
  const named = Object.keys(methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  return (options ? [...named, 'OPTIONS'] : named).join(', ');
}

/** A path with parameters as one regex, and the parameters' names in the order of its groups. */
function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)(?:\((.+)\))?$/.exec(segment);
      if (param === null) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return `(${param[2] ?? '[^/]+'})`;
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

/** The URL without its query: no URL parsing, as the request line's target is already origin-form. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
