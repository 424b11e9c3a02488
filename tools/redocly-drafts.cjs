// Redocly plugin: the two faces of one contract.
//
// The public bundle drops draft operations with the built-in `filter-out` decorator; the
// decorators here remove what still mentions them, so the public docs and bundle say
// nothing about operations consumers must not call:
//   remove-draft-tags  tags marked `x-draft: true` (no empty "Draft" section in the docs)
//   audience           { audience: full | public } on every description, and on the document:
//     - a description line ending in `<!-- draft -->` is kept only in the full bundle, one
//       ending in `<!-- public -->` only in the public one (the marker itself is removed);
//     - public: enum values listed in a schema's `x-draft-values` are removed, and so are
//       servers marked `x-internal: true` (local development is no environment of consumers).
const MARKED_LINE = /^(.*?)[ \t]*<!--[ \t]*(draft|public)[ \t]*-->[ \t]*$/;

function forAudience(text, audience) {
  const keep = audience === 'public' ? 'public' : 'draft';
  return text
    .split('\n')
    .flatMap((line) => {
      const marked = MARKED_LINE.exec(line);
      if (!marked) return [line];
      return marked[2] === keep ? [marked[1]] : [];
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n'); // a removed section leaves no gap
}

module.exports = function draftsPlugin() {
  return {
    id: 'drafts',
    decorators: {
      oas3: {
        'remove-draft-tags': () => ({
          Root: {
            leave(root) {
              if (Array.isArray(root.tags)) root.tags = root.tags.filter((tag) => !tag['x-draft']);
            },
          },
        }),
        audience: ({ audience }) => {
          if (audience !== 'full' && audience !== 'public') throw new Error(`drafts/audience: audience must be full or public, got ${audience}`);
          return {
            any: {
              enter(node) {
                if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
                if (typeof node.description === 'string') node.description = forAudience(node.description, audience);
                if (audience === 'public' && Array.isArray(node['x-draft-values'])) {
                  const drafts = new Set(node['x-draft-values']);
                  if (Array.isArray(node.enum)) node.enum = node.enum.filter((value) => !drafts.has(value));
                  delete node['x-draft-values'];
                }
              },
            },
            Root: {
              leave(root) {
                if (audience === 'public' && Array.isArray(root.servers)) root.servers = root.servers.filter((server) => server['x-internal'] !== true);
              },
            },
          };
        },
      },
    },
  };
};

module.exports.forAudience = forAudience;
