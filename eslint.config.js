// The linter of the site's JavaScript, run by `make lint`: the table page's ES modules
// (frontend/static) and the classic script inlined in the page (frontend/start.js).  The
// service worker is a template (its settings are written into it), so not JavaScript until
// rendered: frontend/offline.py and its tests check it.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["frontend/static/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    // The modules' own tests run under Node's test runner (tests/frontend/test_intents_node.py).
    files: ["frontend/static/**/tests/**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["frontend/templates/frontend/start.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "script", globals: { ...globals.browser } },
  },
  {
    rules: {
      // `const { type, ...rest } = msg` leaves `type` out of `rest`: named, not used, on purpose.
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
];
