/**
 * Comments as threads: each comment with its replies under it (`parent_id`), oldest first at
 * every level, whatever order they arrive in. A reply whose parent is not in the list (deleted,
 * or on another page) is shown as a thread of its own rather than lost.
 */
export interface ThreadComment {
  id: string;
  parent_id: string | null;
  created_at: string;
}

export interface CommentNode<C extends ThreadComment> {
  comment: C;
  /** 0 for a thread's first comment, 1 for its replies, and so on. */
  depth: number;
  replies: CommentNode<C>[];
}

export function threadComments<C extends ThreadComment>(comments: readonly C[]): CommentNode<C>[] {
  const nodes = new Map(comments.map((comment) => [comment.id, { comment, depth: 0, replies: [] as CommentNode<C>[] }]));
  const roots: CommentNode<C>[] = [];
  for (const node of nodes.values()) {
    const parent = node.comment.parent_id ? nodes.get(node.comment.parent_id) : undefined;
    // A parent that is the comment itself or one of its own replies would make a loop.
    if (parent && !isWithin(parent, node, nodes)) parent.replies.push(node);
    else roots.push(node);
  }
  const byTime = (a: CommentNode<C>, b: CommentNode<C>) =>
    a.comment.created_at.localeCompare(b.comment.created_at) || a.comment.id.localeCompare(b.comment.id);
  const settle = (list: CommentNode<C>[], depth: number) => {
    list.sort(byTime);
    for (const node of list) {
      node.depth = depth;
      settle(node.replies, depth + 1);
    }
  };
  settle(roots, 0);
  return roots;
}

/** Whether `candidate` is `node` or sits below it, following parents up from the candidate. */
function isWithin<C extends ThreadComment>(candidate: CommentNode<C>, node: CommentNode<C>, nodes: Map<string, CommentNode<C>>): boolean {
  const seen = new Set<string>();
  for (let at: CommentNode<C> | undefined = candidate; at && !seen.has(at.comment.id);) {
    if (at === node) return true;
    seen.add(at.comment.id);
    at = at.comment.parent_id ? nodes.get(at.comment.parent_id) : undefined;
  }
  return false;
}

/** The threads flattened in reading order, each comment with its depth: what the list renders. */
export function flattenThreads<C extends ThreadComment>(threads: readonly CommentNode<C>[]): { comment: C; depth: number }[] {
  return threads.flatMap((node) => [{ comment: node.comment, depth: node.depth }, ...flattenThreads(node.replies)]);
}
