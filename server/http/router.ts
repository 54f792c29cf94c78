// A table of routes, from which the known paths and each path's allowed methods follow: nothing kept in a second list.
import type { ApiContext } from './api/api.ts';
import { DETAILS, MAX_URL_LENGTH, problem, type Answer, type RequestLike } from './transport/answer.ts';
import { CORS_HEADERS } from './transport/cors.ts';

/** The answer to a GET (HEAD shares it; the handler drops its body), or undefined when nothing is there (a 404). */
export type Read = (req: RequestLike, path: string, search: string, ctx: ApiContext) => Answer | undefined;

export interface Route {
  /** The path, or with `prefix` every path that starts with it. */
  path: string;
  prefix?: boolean;
  /** The answer to each method; HEAD is GET's without its body, OPTIONS (a CORS preflight) the router's own. */
  methods: { GET: Read };
}

/** The methods a route answers, for Allow. */
export function methodsOf(route: Route): string {
  const named = Object.keys(route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  return [...named, 'OPTIONS'].join(', ');
}

export class Router {
  private readonly exact = new Map<string, Route>();
  private readonly prefixes: Route[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      if (route.prefix) this.prefixes.push(route);
      else this.exact.set(route.path, route);
    }
  }

  /** The route serving this path, or undefined: the one test of whether a path is known. */
  routeOf(path: string): Route | undefined {
    return this.exact.get(path) ?? this.prefixes.find((r) => path.startsWith(r.path));
  }

  answer(req: RequestLike, ctx: ApiContext): Answer {
    const { url, method } = req;
    if (url.length > MAX_URL_LENGTH) return problem('uri_too_long', DETAILS.uri_too_long(MAX_URL_LENGTH), CORS_HEADERS);
    const path = pathOf(url);
    const route = this.routeOf(path);
    if (route === undefined) return notFound();
    if (method === 'GET' || method === 'HEAD')
      return route.methods.GET(req, path, url.slice(path.length), ctx) ?? notFound();
    const allow = methodsOf(route);
    if (method === 'OPTIONS') return { status: 204, headers: { ...CORS_HEADERS, allow }, body: null };
    return problem('method_not_allowed', DETAILS.method_not_allowed(method), { ...CORS_HEADERS, allow });
  }
}

function notFound(): Answer {
  return problem('not_found', 'There is nothing at this address.', CORS_HEADERS);
}

/** The URL without its query: no URL parsing, as the request line's target is already origin-form. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
