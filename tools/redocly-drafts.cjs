// Redocly plugin: the public bundle drops draft operations with the built-in
// `filter-out` decorator; this decorator also drops the tags marked `x-draft`,
// so the public docs show no empty "Draft" section.
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
    },
  },
  };
};
