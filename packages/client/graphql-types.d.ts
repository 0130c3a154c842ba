/**
 * The GraphQL types the client's declarations name, stated structurally so that the package needs neither `graphql`
 * nor `@graphql-typed-document-node/core` installed. Documents made by those packages (GraphQL Code Generator's
 * typed document nodes, `gql` tags) are assignable to these.
 */

/** A parsed GraphQL document. */
export interface DocumentNode {
  readonly kind: string;
  readonly definitions: ReadonlyArray<unknown>;
}

/** The result and variables types a typed document carries (as `@graphql-typed-document-node/core` declares). */
export interface DocumentTypeDecoration<Result, Variables> {
  /** Never set at run time: it only carries the types. */
  __apiType?: (variables: Variables) => Result;
}

/** A parsed document that knows the type of its result and of its variables. */
export interface TypedDocumentNode<
  Result = { [key: string]: unknown },
  Variables = { [key: string]: unknown },
> extends DocumentNode,
    DocumentTypeDecoration<Result, Variables> {}

/** A GraphQL error as it travels in a response. */
export interface GraphQLFormattedError {
  readonly message: string;
  readonly locations?: ReadonlyArray<{ readonly line: number; readonly column: number }>;
  readonly path?: ReadonlyArray<string | number>;
  readonly extensions?: { [key: string]: unknown };
}
