/**
 * Keyplan's own lint rules, as a local ESLint plugin (`keyplan/…` in eslint.config.js). Each keeps
 * one concept in one place; `tests/lint-layering.test.ts` lints a violating fixture for each.
 */

/** `action` as a bare name or a member (`p.action`, `pattern?.action`). */
const isAction = (node) =>
  (node?.type === 'Identifier' && node.name === 'action') ||
  (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && node.property.name === 'action') ||
  (node?.type === 'ChainExpression' && isAction(node.expression));

const isText = (node) => (node?.type === 'Literal' && typeof node.value === 'string') || node?.type === 'TemplateLiteral';

const KINDS_MODULE = 'src-shared/model/pattern-kinds.ts';

/**
 * An access pattern's `action` is asked about through the kinds table (`kindOf(p.action).counts`,
 * `isWritePattern(p)`), or switched over exhaustively (a `default` that calls `unreachableAction`),
 * so that a new kind fails to compile until every place handles it; never compared to a string.
 */
const patternKinds = {
  meta: {
    type: 'problem',
    docs: { description: 'Ask the pattern-kinds table instead of comparing an action to a string' },
    messages: {
      compare: `Compare no access-pattern action to a string: ask the kinds table in ${KINDS_MODULE} (kindOf(action).…, isWritePattern, isCountPattern), so a new kind is handled everywhere.`,
      includes: `Test no access-pattern action against a list of strings: ask the kinds table in ${KINDS_MODULE}.`,
      switch: `A switch over an access-pattern action ends in \`default: unreachableAction(action)\` (${KINDS_MODULE}), so a new kind fails to compile here until it is handled.`,
    },
    schema: [],
  },
  create(context) {
    return {
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        if ((isAction(node.left) && isText(node.right)) || (isAction(node.right) && isText(node.left))) context.report({ node, messageId: 'compare' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'includes' && isAction(node.arguments[0])) {
          context.report({ node, messageId: 'includes' });
        }
      },
      SwitchStatement(node) {
        if (!isAction(node.discriminant)) return;
        const fallback = node.cases.find((c) => c.test === null);
        const source = fallback ? context.sourceCode.getText(fallback) : '';
        if (!/\bunreachableAction\(/.test(source)) context.report({ node, messageId: 'switch' });
      },
    };
  },
};

export default { meta: { name: 'keyplan' }, rules: { 'pattern-kinds': patternKinds } };
