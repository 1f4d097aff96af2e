/**
 * The little of `xpath` and `@xmldom/xmldom` candidate (a) uses; they are not dependencies of the
 * project (expressions.ts installs them in a temporary folder to measure them).
 */
declare module 'xpath' {
  interface XValue {
    stringValue(): string;
    numberValue(): number;
    booleanValue(): boolean;
    toUnsortedArray?(): unknown[];
  }
  interface Parsed {
    evaluate(options: { node: unknown; functions?: Record<string, (context: unknown, ...args: XValue[]) => unknown> }): XValue;
  }
  export function parse(expression: string): Parsed;
}
declare module '@xmldom/xmldom' {
  export class DOMImplementation {
    createDocument(namespace: string | null, qualifiedName: string, doctype: null): XDocument;
  }
  export interface XElement {
    appendChild(node: unknown): unknown;
    getElementsByTagName(name: string): ArrayLike<XElement>;
    childNodes: ArrayLike<XElement>;
    nodeName: string;
  }
  export interface XDocument {
    documentElement: XElement;
    createElement(name: string): XElement;
    createTextNode(text: string): unknown;
  }
}
