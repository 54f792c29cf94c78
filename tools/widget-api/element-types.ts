// TypeScript's view of the element: each public field's type, printed so that the .d.ts needs no other file.
import ts from 'typescript';
import { comment } from './jsdoc.ts';
import { CLASS, ELEMENT, EVENT_MAP, EVENTS, path } from './source.ts';

export class ElementTypes {
  readonly checker: ts.TypeChecker;
  readonly element: ts.Type;
  readonly events: ts.Type;
  private readonly program: ts.Program;
  private readonly names = new Map<ts.Type, string>();
  private readonly declared: { type: ts.Type; name: string; doc?: string }[] = [];

  constructor() {
    const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
    const config = ts.getParsedCommandLineOfConfigFile(path('tsconfig.json'), {}, host);
    if (!config) throw new Error('tsconfig.json: unreadable');
    this.program = ts.createProgram([path(ELEMENT), path(EVENTS)], config.options);
    this.checker = this.program.getTypeChecker();
    this.element = this.declaredType(ELEMENT, CLASS);
    this.events = this.declaredType(EVENTS, EVENT_MAP);
  }

  private declaredType(file: string, name: string): ts.Type {
    const source = this.program.getSourceFile(path(file));
    const node = source?.statements.find(
      (s) => (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === name,
    ) as ts.ClassDeclaration | ts.InterfaceDeclaration | undefined;
    if (!node?.name) throw new Error(`${file}: no ${name}`);
    return this.checker.getTypeAtLocation(node.name);
  }

  typeOf(owner: ts.Type, property: string): ts.Type {
    const symbol = owner.getProperty(property);
    if (!symbol) throw new Error(`${this.checker.typeToString(owner)} has no ${property}`);
    return this.checker.getTypeOfSymbol(symbol);
  }

  /** Publishes a type under a name: printed as that name, declared once among `declarations()`. */
  name(type: ts.Type, name: string, doc?: string): string {
    if (!this.names.has(type)) {
      this.names.set(type, name);
      this.declared.push({ type, name, doc });
    }
    return name;
  }

  private fromProject(symbol: ts.Symbol | undefined): boolean {
    return !!symbol?.declarations?.some((d) => {
      const file = d.getSourceFile();
      return !this.program.isSourceFileDefaultLibrary(file) && !file.fileName.includes('/node_modules/');
    });
  }

  print(type: ts.Type, optional = false): string {
    const named = this.names.get(type);
    if (named) return named;
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(optional && t.flags & ts.TypeFlags.Undefined)).map((t) => this.print(t));
      const both = parts.includes('true') && parts.includes('false');
      const unique = [...new Set(parts.map((p) => (both && (p === 'true' || p === 'false') ? 'boolean' : p)))];
      const last = ['null', 'undefined']; // where TypeScript itself prints them
      return [...unique.filter((p) => !last.includes(p)), ...last.filter((p) => unique.includes(p))].join(' | ');
    }
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return item ? `${item.isUnion() ? `(${this.print(item)})` : this.print(item)}[]` : 'unknown[]';
    }
    const alias = type.aliasSymbol;
    if (alias && type.aliasTypeArguments && !this.fromProject(alias)) {
      return `${alias.name}<${type.aliasTypeArguments.map((t) => this.print(t)).join(', ')}>`;
    }
    const symbol = alias ?? type.getSymbol();
    const structured = (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
    if (structured && symbol && this.fromProject(symbol) && !symbol.name.startsWith('__')) {
      return this.name(type, `${CLASS}${symbol.name}`, this.docOf(symbol));
    }
    const anonymous = !symbol || symbol.name.startsWith('__');
    if (type.flags & ts.TypeFlags.Object && anonymous && !type.getCallSignatures().length) {
      return `{ ${this.members(type)} }`;
    }
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  private docOf(symbol: ts.Symbol): string {
    return ts.displayPartsToString(symbol.getDocumentationComment(this.checker));
  }

  private members(type: ts.Type): string {
    return this.checker
      .getPropertiesOfType(type)
      .map((p) => {
        const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
        const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : `'${p.name}'`;
        const line = `${key}${optional ? '?' : ''}: ${this.print(this.checker.getTypeOfSymbol(p), optional)};`;
        const doc = this.docOf(p);
        return doc ? `${comment(doc, '')}\n${line}` : line;
      })
      .join('\n');
  }

  /** The named types, declared in the order they were first met (and those they name in turn). */
  declarations(): string {
    const out: string[] = [];
    for (let i = 0; i < this.declared.length; i++) {
      const { type, name, doc } = this.declared[i]!;
      out.push(`${doc ? `${comment(doc, '')}\n` : ''}export interface ${name} {\n${this.members(type)}\n}`);
    }
    return out.join('\n\n');
  }
}
