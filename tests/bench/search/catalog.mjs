// A large, deterministic MCP tool catalog for the tool-search benchmark and the retrieval-quality
// check (queries.json). Twenty-four simulated servers of everyday kinds (a code host, an issue
// tracker, chat, mail, a calendar, SQL, a key-value cache, Kubernetes, an object store, a CRM,
// payments, a wiki, a filesystem, browser automation, metrics, CI, DNS, translation, maps,
// weather, spreadsheets, a help desk, file sharing, a secrets vault), over a thousand tools.
//
//   import { catalog, NAMING, NAME_PATTERNS } from "./catalog.mjs";
//   const servers = catalog();   // { [serverName]: Tool[] }, a fresh plain-JSON object per call
//
// Tools are MCP Tool objects ({name, title?, description, inputSchema}). Each server names its
// tools in one convention (NAMING): snake_case (`create_issue`), camelCase (`listPullRequests`),
// dotted `resource.verb` (`messages.send`) or hyphenated (`create-contact`), six servers each.
// Parameter names follow the server too: snake_case on snake and hyphen servers, camelCase on
// camel and dotted ones. Many servers cover the same ground (list/get/search/create of similar
// things: tickets in the tracker and the help desk, files in fs, drive and s3, messages in chat
// and mail), so retrieval is not a keyword lookup.
//
// Most resource-shaped servers are generated from resource specs (fields, filters, an id, a
// sentence about what the resource is) crossed with the verbs that apply to them; the templates
// come in several phrasings, picked by a hash of the server and resource, and they weave in the
// resource's own sentence, fields and filters, so no two resources read alike. Tools that do not
// fit that shape are written out by hand. No randomness, no clock: the output is the same on
// every run and every machine.

/** The naming convention of each server's tool names. */
export const NAMING = {
  github: "snake", jira: "snake", pg: "snake", k8s: "snake", weather: "snake", fs: "snake",
  slack: "camel", calendar: "camel", stripe: "camel", sheets: "camel", maps: "camel", ci: "camel",
  mail: "dotted", wiki: "dotted", s3: "dotted", metrics: "dotted", dns: "dotted", browser: "dotted",
  crm: "hyphen", translate: "hyphen", redis: "hyphen", helpdesk: "hyphen", drive: "hyphen", vault: "hyphen",
};

/** What a tool name looks like in each convention (a dotted name always has a dot). */
export const NAME_PATTERNS = {
  snake: /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/,
  camel: /^[a-z][a-z0-9]*([A-Z][a-z0-9]*)*$/,
  dotted: /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/,
  hyphen: /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/,
};

// ---------------------------------------------------------------------------------------------
// Names

const words = (s) => String(s ?? "").trim().split(/\s+/).filter(Boolean);
const cap = (w) => (w ? w[0].toUpperCase() + w.slice(1) : w);
const camelWords = (ws) => ws.map((w, i) => (i ? cap(w) : w)).join("");
const PARAM_STYLE = { snake: "snake", hyphen: "snake", camel: "camel", dotted: "camel" };

/**
 * A tool name from its verb and noun (and an object after the noun): `verb noun object` in the
 * snake, camel and hyphen conventions, `noun.verbObject` in the dotted one.
 */
function toolName(conv, verb, noun = "", obj = "") {
  const v = words(verb), n = words(noun), o = words(obj);
  switch (conv) {
    case "snake": return [...v, ...n, ...o].join("_");
    case "hyphen": return [...v, ...n, ...o].join("-");
    case "camel": return camelWords([...v, ...n, ...o]);
    case "dotted":
      if (!n.length) throw new Error(`dotted name without a noun: ${verb}`);
      return `${camelWords(n)}.${camelWords([...v, ...o])}`;
    default: throw new Error(`unknown convention ${conv}`);
  }
}

const paramKey = (style, key) => (style === "camel" ? camelWords(words(key)) : words(key).join("_"));
const bare = (key) => key.replace(/!$/, "");

/** An input schema from `{ "param words": spec }`; a key ending in "!" is required. */
function schema(style, params) {
  const properties = {};
  const required = [];
  for (const [k, spec] of Object.entries(params)) {
    const key = paramKey(style, bare(k));
    if (key in properties) throw new Error(`duplicate parameter ${key}`);
    properties[key] = spec;
    if (k.endsWith("!")) required.push(key);
  }
  return { type: "object", properties, required };
}

const optional = (params) => Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [bare(k), v]));

// ---------------------------------------------------------------------------------------------
// Parameter specs

const str = (description, extra) => ({ type: "string", description, ...extra });
const int = (description, extra) => ({ type: "integer", description, ...extra });
const num = (description, extra) => ({ type: "number", description, ...extra });
const bool = (description, extra) => ({ type: "boolean", description, ...extra });
const obj = (description, extra) => ({ type: "object", description, ...extra });
const arr = (description, items = "string", extra) => ({ type: "array", items: { type: items }, description, ...extra });
const en = (values, description, extra) => ({ type: "string", enum: values, description, ...extra });

// ---------------------------------------------------------------------------------------------
// Text helpers

/** FNV-1a, for picking among phrasings deterministically. */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
const pick = (key, options) => options[hash(key) % options.length];
// "an" before vowel sounds, including spelled-out acronyms such as SLO or SSH.
const art = (w) => (/^([aeio]|u(?!s|ni)|[FHLMNRSX][A-Z])/.test(w) || /^[AEIO]/.test(w) ? "an" : "a");
function join(items, last = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;
}
const keysOf = (params) => Object.keys(params ?? {}).map(bare);
const sentence = (s) => (s ? ` ${s}` : "");
const ucfirst = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// ---------------------------------------------------------------------------------------------
// Resource-shaped tools

const VERB_LETTERS = { l: "list", g: "get", c: "create", u: "update", d: "delete", s: "search" };

/**
 * The tools of one resource: the standard verbs it supports (res.verbs, letters of "lgcuds") and
 * its own (res.custom).
 *
 * res: { n, pl, label, plLabel, what, id: {key: spec}, parent: {...}, parentVerbs, scope, where,
 *        fields, ufields, filters, filterText, searchIn, searchScope, sfilters, returns, verbs,
 *        verbNames: {c: "add"}, notes: {c: ...}, desc: {l: override}, extra: {d: {...}},
 *        custom: [{v, o, pl, d, p, noId, noParent}] }
 * `n`/`pl` make the tool names; `label`/`plLabel` (default: the same) are what the text says.
 */
function resourceTools(srvName, srv, res) {
  const conv = srv.conv;
  const scope = res.scope ?? srv.scope ?? {};
  const parentFor = (v) => (res.parentVerbs && !res.parentVerbs.includes(v) ? {} : res.parent ?? {});
  const where = res.where ?? srv.where ?? "";
  const W = where ? ` ${where}` : "";
  const n = res.n;
  const pl = res.pl ?? `${n}s`;
  // What the text calls the resource (its name words may be lowercased acronyms).
  const N = res.label ?? n;
  const PL = res.plLabel ?? (res.label ? `${res.label}s` : pl);
  const a = art(N);
  const what = sentence(res.what);
  const note = (v) => sentence(res.notes?.[v]);
  const idKey = res.id ? bare(Object.keys(res.id)[0]) : null;
  const fields = res.fields ?? {};
  const ufields = optional(res.ufields ?? fields);
  const fieldNames = keysOf(fields);
  const ufieldNames = keysOf(ufields);
  // Filters named in the text: boolean switches read badly as "matching the given include x".
  const filterNames = Object.entries(res.filters ?? {}).filter(([, s]) => s.type !== "boolean").map(([k]) => bare(k));
  const hasFilters = !!res.filterText || filterNames.length > 0;
  const flt = (last) => res.filterText ?? join(filterNames, last);
  const returns = res.returns ?? join(fieldNames.slice(0, 5));
  const searchIn = res.searchIn ?? join(fieldNames.slice(0, 3));
  const required = Object.keys(fields).filter((k) => k.endsWith("!")).map(bare);
  const opt = fieldNames.filter((k) => !required.includes(k));
  const paging = res.paging ?? srv.paging ?? {};
  const key = `${srvName}/${n}`;
  const tools = [];
  const add = (verb, noun, obj, description, params) => {
    const name = toolName(conv, verb, noun, obj);
    tools.push({ name, description, params });
  };
  const nounFor = (plural) => (conv === "dotted" || plural ? pl : n);

  for (const letter of res.verbs ?? "") {
    const std = VERB_LETTERS[letter];
    if (!std) throw new Error(`${key}: unknown verb letter ${letter}`);
    const verb = res.verbNames?.[letter] ?? std;
    const base = { ...scope, ...parentFor(letter) };
    const idParams = res.id ?? {};
    const extra = res.extra?.[letter] ?? {};
    const over = res.desc?.[letter];
    const k = `${key}/${letter}`;
    let text;
    switch (letter) {
      case "l":
        text = over ?? pick(k, [
          `List ${PL}${W}.${what}${hasFilters ? ` Filter by ${flt("or")}.` : ""}`,
          `Returns a paginated list of ${PL}${W}${hasFilters ? `, optionally narrowed by ${flt()}` : ""}.${what}`,
          `Lists the ${PL}${W}${hasFilters ? ` matching the given ${flt()}` : ""}. Use the paging parameters to walk large result sets.`,
        ]);
        add(verb, nounFor(true), "", text + note("l"), { ...base, ...(res.filters ?? {}), ...paging, ...extra });
        break;
      case "g":
        text = over ?? (returns
          ? pick(k, [
              `Get ${a} ${N}${idKey ? ` by its ${idKey}` : ""}. Returns its ${returns}.`,
              `Fetch a single ${N}, including ${returns}.`,
              `Retrieve the full record of one ${N} (${returns}).${what}`,
            ])
          : `Get one ${N}${idKey ? ` by its ${idKey}` : ""} with all its attributes.${what}`);
        add(verb, nounFor(false), "", text + note("g"), { ...base, ...idParams, ...extra });
        break;
      case "c":
        if (res.verbNames?.c) text = over ?? `${ucfirst(verb)} ${a} ${N}${W}.${what}`;
        else {
          text = over ?? pick(k, [
            `Create ${a} ${N}${W}.${what}`,
            required.length
              ? `Creates a new ${N}${W}. ${ucfirst(join(required))} ${required.length > 1 ? "are" : "is"} required${opt.length ? `; ${join(opt.slice(0, 4))} can also be set` : ""}.`
              : `Creates a new ${N}${W}; ${join(opt.slice(0, 4))} can be set.`,
            `Add a new ${N}${W}.${what}`,
          ]);
        }
        add(verb, nounFor(false), "", text + note("c"), { ...base, ...fields, ...extra });
        break;
      case "u":
        text = over ?? pick(k, [
          `Update ${a} ${N}. Only the fields you pass (${join(ufieldNames, "or")}) are changed.`,
          `Modify an existing ${N}: change its ${join(ufieldNames)}. Omitted fields keep their current values.`,
          ufieldNames.length > 1
            ? `Edit ${a} ${N} in place; any of ${join(ufieldNames, "or")} may be supplied.`
            : `Edit ${a} ${N} in place by passing its new ${ufieldNames[0]}.`,
        ]);
        add(verb, nounFor(false), "", text + note("u"), { ...base, ...idParams, ...ufields, ...extra });
        break;
      case "d":
        text = over ?? pick(k, [
          `Delete ${a} ${N}${W}.${sentence(res.notes?.d ?? "This cannot be undone.")}`,
          `Permanently remove ${a} ${N}.${sentence(res.notes?.d ?? "The deletion is irreversible.")}`,
          `Deletes the ${N} identified by ${idKey ?? "its name"}.${note("d")}`,
        ]);
        add(verb, nounFor(false), "", text, { ...base, ...idParams, ...extra });
        break;
      case "s": {
        const short = searchIn.length <= 48;
        text = over ?? pick(k, [
          `Search ${PL}${W} by free text. The query is matched against ${searchIn}.`,
          `Full-text search across ${PL}: matches ${searchIn} and ranks results by relevance.`,
          short ? `Find ${PL} whose ${searchIn} contain the given words.` : `Search ${PL} by keyword; the query is matched against ${searchIn}.`,
        ]);
        const sBase = res.searchScope ?? base;
        add(verb, nounFor(true), "", text + note("s"), {
          ...sBase,
          "query!": str(short ? `Search text, matched against ${searchIn}.` : "Search text; see the tool description for the syntax."),
          ...(res.sfilters ?? {}),
          ...(srv.searchLimit ?? { limit: int("Maximum number of matches to return (default 20).") }),
          ...extra,
        });
        break;
      }
    }
  }
  for (const c of res.custom ?? []) {
    const params = {
      ...scope,
      ...(c.noParent ? {} : res.parent ?? {}),
      ...(c.noId ? {} : res.id ?? {}),
      ...(c.p ?? {}),
    };
    add(c.v, nounFor(!!c.pl), c.o ?? "", c.d, params);
  }
  return tools;
}

/** All tools of one server definition, as MCP Tool objects. */
function buildServer(name, def) {
  const conv = NAMING[name];
  if (!conv) throw new Error(`no naming convention for ${name}`);
  const srv = { ...def, conv };
  const raw = [];
  for (const res of def.resources ?? []) raw.push(...resourceTools(name, srv, res));
  for (const [verb, noun, description, params = {}, opts = {}] of def.tools ?? []) {
    raw.push({ name: toolName(conv, verb, noun, opts.o), description, params: { ...(opts.scope ? def.scope : {}), ...params } });
  }
  const style = PARAM_STYLE[conv];
  const seen = new Set();
  return raw.map((t) => {
    if (seen.has(t.name)) throw new Error(`${name}: duplicate tool ${t.name}`);
    seen.add(t.name);
    const tool = { name: t.name };
    if (def.titles) tool.title = ucfirst(titleWords(conv, t.name));
    tool.description = t.description;
    tool.inputSchema = schema(style, t.params);
    return tool;
  });
}

/** A human title from a tool name: "merge_pull_request" -> "merge pull request", "pages.move" -> "pages: move". */
function titleWords(conv, name) {
  if (conv === "dotted") {
    const [noun, verb] = name.split(".");
    return `${splitCamel(noun)}: ${splitCamel(verb)}`;
  }
  return splitCamel(name).replace(/[_-]/g, " ");
}
const splitCamel = (s) => s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

// ---------------------------------------------------------------------------------------------
// snake_case servers

function github() {
  const repo = {
    "owner!": str("Repository owner: a user or organization login."),
    "repo!": str("Repository name, without the .git suffix."),
  };
  const state = (what) => en(["open", "closed", "all"], `Only ${what} in this state (default open).`);
  return {
    titles: true,
    where: "in a repository",
    scope: repo,
    paging: {
      "per page": int("Results per page, at most 100 (default 30).", { minimum: 1, maximum: 100 }),
      page: int("Page number of the results to fetch, starting at 1.", { minimum: 1 }),
    },
    resources: [
      {
        n: "issue",
        what: "Issues track bugs, feature requests and other work; pull requests are not included.",
        id: { "issue number!": int("The number that identifies the issue within the repository.") },
        fields: {
          "title!": str("Issue title."),
          body: str("Issue body in GitHub-flavored Markdown."),
          labels: arr("Names of labels to apply."),
          assignees: arr("Logins of the users to assign."),
          milestone: int("Number of the milestone to associate the issue with."),
        },
        ufields: {
          title: str("New title."),
          body: str("New body in Markdown."),
          labels: arr("Replaces the issue's labels with these names."),
          assignees: arr("Replaces the assignees with these logins."),
          milestone: int("Milestone number, or 0 to remove the milestone."),
        },
        filters: {
          state: state("issues"),
          labels: str("Comma-separated label names; issues must carry all of them."),
          assignee: str("Login of the assignee, 'none' for unassigned, '*' for any."),
          creator: str("Login of the user who opened the issue."),
          since: str("Only issues updated at or after this ISO 8601 timestamp."),
          sort: en(["created", "updated", "comments"], "Field to sort by (default created)."),
        },
        returns: "title, body, state, labels, assignees, milestone and comment count",
        verbs: "lgcu",
        notes: { c: "The authenticated user needs push access to set labels, assignees or a milestone." },
        custom: [
          { v: "close", d: "Close an issue as completed or not planned. Closing keeps the history and can be undone by reopening.", p: { "state reason": en(["completed", "not_planned"], "Why the issue is being closed (default completed).") } },
          { v: "reopen", d: "Reopen a closed issue so it shows up in open-issue lists again." },
          { v: "lock", d: "Lock the conversation on an issue so only collaborators can comment.", p: { "lock reason": en(["off-topic", "too heated", "resolved", "spam"], "Reason shown on the timeline.") } },
          { v: "unlock", d: "Unlock an issue's conversation so anyone with access can comment again." },
          { v: "add", o: "labels", d: "Add labels to an issue without removing the ones it already has. Labels that do not exist are created.", p: { "labels!": arr("Label names to add.") } },
          { v: "remove", o: "label", d: "Remove one label from an issue. The label itself stays defined in the repository.", p: { "name!": str("Name of the label to remove.") } },
          { v: "list", o: "timeline events", d: "List the timeline of an issue: comments, label changes, cross-references, assignments and commits that mention it." },
        ],
      },
      {
        n: "issue comment",
        where: "on an issue or pull request",
        what: "Comments on issues and on the conversation tab of pull requests.",
        parent: { "issue number!": int("Number of the issue or pull request.") },
        parentVerbs: "lc",
        id: { "comment id!": int("Numeric ID of the comment.") },
        fields: { "body!": str("Comment text in Markdown.") },
        filters: { since: str("Only comments updated at or after this ISO 8601 timestamp.") },
        filterText: "last update time",
        verbs: "lcud",
        notes: { c: "Mentions (@user) and issue references (#123) are linked automatically." },
      },
      {
        n: "pull request",
        what: "A pull request proposes merging the commits of a head branch into a base branch.",
        id: { "pull number!": int("The pull request number.") },
        fields: {
          "title!": str("Pull request title."),
          "head!": str("Branch holding the changes; use user:branch for a branch in a fork."),
          "base!": str("Branch the changes should be merged into, e.g. main."),
          body: str("Description in Markdown."),
          draft: bool("Open the pull request as a draft."),
          "maintainer can modify": bool("Allow maintainers of the base repository to push to the head branch."),
        },
        ufields: {
          title: str("New title."),
          body: str("New description."),
          base: str("Retarget the pull request onto this base branch."),
          state: en(["open", "closed"], "Close or reopen the pull request."),
        },
        filters: {
          state: state("pull requests"),
          head: str("Head branch filter in the form user:ref-name."),
          base: str("Only pull requests targeting this base branch."),
          sort: en(["created", "updated", "popularity", "long-running"], "Sort order."),
        },
        returns: "title, body, state, head and base branches, mergeability, review decision and diff stats",
        verbs: "lgcu",
        custom: [
          { v: "merge", d: "Merge a pull request into its base branch using a merge commit, a squash or a rebase. Fails if required checks or reviews are missing.", p: { "merge method": en(["merge", "squash", "rebase"], "How to merge (default merge)."), "commit title": str("Title of the merge or squash commit."), "commit message": str("Extra detail for the merge commit message."), sha: str("Head SHA that must match for the merge to proceed (guards against racing pushes).") } },
          { v: "list", o: "files", d: "List the files changed by a pull request with their status (added, modified, removed, renamed) and per-file additions and deletions." },
          { v: "get", o: "diff", d: "Get the unified diff of a pull request as plain text, as it would be applied to the base branch." },
          { v: "list", o: "commits", d: "List the commits on a pull request's head branch that are not on its base, oldest first (up to 250)." },
          { v: "request", o: "reviewers", d: "Ask users or teams to review a pull request; they are notified and the request shows on the pull request.", p: { reviewers: arr("Logins of users to request."), "team reviewers": arr("Slugs of teams to request.") } },
          { v: "update", o: "branch", d: "Bring a pull request's head branch up to date by merging the latest base branch into it.", p: { "expected head sha": str("Only update if the head is still at this SHA.") } },
          { v: "get", o: "status", d: "Get the combined status of a pull request: check runs and commit statuses on its head commit, and whether it is mergeable." },
        ],
      },
      {
        n: "pull request review",
        where: "on a pull request",
        what: "Reviews approve a pull request, request changes, or leave comments on its diff.",
        parent: { "pull number!": int("The pull request number.") },
        id: { "review id!": int("Numeric ID of the review.") },
        fields: {
          "event!": en(["APPROVE", "REQUEST_CHANGES", "COMMENT"], "The review action; omit to leave the review pending."),
          body: str("Overall review comment in Markdown."),
          comments: arr("Inline comments, each {path, line, body} on the diff.", "object"),
          "commit id": str("SHA of the commit the review applies to (default: the latest)."),
        },
        returns: "state, author, body and submission time",
        verbs: "lgc",
        custom: [
          { v: "dismiss", d: "Dismiss a submitted review so it no longer counts towards required approvals. Requires admin or maintain access.", p: { "message!": str("Reason for dismissing, shown on the timeline.") } },
        ],
      },
      {
        n: "branch",
        pl: "branches",
        what: "Branches are named lines of development pointing at a commit.",
        id: { "branch!": str("Branch name.") },
        fields: { "branch!": str("Name of the new branch."), "from ref!": str("Existing branch, tag or commit SHA to branch from.") },
        filters: { protected: bool("Only protected (true) or unprotected (false) branches.") },
        returns: "head commit, protection status and links",
        verbs: "lgcd",
        notes: { d: "Deleting the default branch or a protected branch is refused." },
        custom: [
          { v: "get", o: "protection", d: "Get the protection rules of a branch: required reviews, required status checks, push restrictions and linear-history settings." },
          { v: "update", o: "protection", d: "Set the protection rules of a branch, such as required approving reviews and required status checks.", p: { "required approving review count": int("Number of approvals needed to merge (0-6)."), "required status checks": arr("Names of checks that must pass before merging."), "enforce admins": bool("Apply the rules to administrators too."), "require linear history": bool("Forbid merge commits on the branch.") } },
          { v: "rename", d: "Rename a branch. Open pull requests and branch protection move to the new name.", p: { "new name!": str("The new branch name.") } },
        ],
      },
      {
        n: "commit",
        what: "Commits are snapshots of the repository with an author, message and parents.",
        id: { "sha!": str("Commit SHA (full or abbreviated), or a branch or tag name.") },
        filters: {
          sha: str("Branch name or SHA to start listing from (default: the default branch)."),
          path: str("Only commits touching this file path."),
          author: str("GitHub login or email address of the author."),
          since: str("Only commits after this ISO 8601 date."),
          until: str("Only commits before this ISO 8601 date."),
        },
        returns: "message, author, committer, parents, stats and the changed files with patches",
        verbs: "lg",
        custom: [
          { v: "compare", pl: true, noId: true, d: "Compare two commits, branches or tags: the commits between them, ahead/behind counts and the combined diff.", p: { "base!": str("Base ref (branch, tag or SHA)."), "head!": str("Head ref to compare against the base.") } },
        ],
      },
      {
        n: "release",
        what: "Releases package a tagged version with notes and downloadable assets.",
        id: { "release id!": int("Numeric ID of the release.") },
        fields: {
          "tag name!": str("Tag for the release; created from target commitish if it does not exist."),
          name: str("Release title."),
          body: str("Release notes in Markdown."),
          "target commitish": str("Branch or SHA the tag is created from (default: the default branch)."),
          draft: bool("Save as an unpublished draft."),
          prerelease: bool("Mark as a pre-release (not production ready)."),
        },
        verbs: "lgcud",
        notes: { d: "The tag itself is kept; delete it separately if needed." },
        custom: [
          { v: "get latest", noId: true, d: "Get the latest published full release (drafts and pre-releases are skipped)." },
          { v: "get", o: "by tag", noId: true, d: "Get a published release from its tag name.", p: { "tag!": str("Tag name, e.g. v1.4.0.") } },
          { v: "generate", o: "notes", noId: true, d: "Generate release notes listing merged pull requests and new contributors between two tags, without creating a release.", p: { "tag name!": str("Tag of the upcoming release."), "previous tag name": str("Tag to start from (default: the previous release).") } },
        ],
      },
      {
        n: "tag",
        what: "Tags are named references to specific commits, usually versions.",
        fields: {
          "tag!": str("Tag name, e.g. v2.0.0."),
          "sha!": str("SHA of the commit to tag."),
          message: str("Message of an annotated tag; omit for a lightweight tag."),
        },
        id: { "tag!": str("Tag name.") },
        verbs: "lcd",
        notes: { d: "Releases that point at the tag lose their tag and become drafts." },
      },
      {
        n: "label",
        what: "Labels categorize issues and pull requests.",
        id: { "name!": str("Current label name.") },
        fields: {
          "name!": str("Label name; emoji shortcodes are supported."),
          color: str("Six-digit hex color without the leading #, e.g. d73a4a."),
          description: str("Short description, up to 100 characters."),
        },
        ufields: { "new name": str("New name for the label."), color: str("New hex color."), description: str("New description.") },
        verbs: "lgcud",
        notes: { d: "The label is removed from every issue and pull request that carries it." },
      },
      {
        n: "milestone",
        what: "Milestones group issues and pull requests towards a due date.",
        id: { "milestone number!": int("Number of the milestone.") },
        fields: {
          "title!": str("Milestone title."),
          description: str("Longer description."),
          "due on": str("Due date as an ISO 8601 timestamp."),
          state: en(["open", "closed"], "Milestone state."),
        },
        filters: { state: state("milestones"), sort: en(["due_on", "completeness"], "Sort order.") },
        verbs: "lgcud",
      },
      {
        n: "webhook",
        what: "Webhooks POST a JSON payload to a URL when chosen events happen.",
        id: { "hook id!": int("Numeric ID of the webhook.") },
        fields: {
          "url!": str("Payload URL that receives the events."),
          events: arr("Events that trigger the hook, e.g. push, pull_request (default push)."),
          secret: str("Secret used to sign payloads in the X-Hub-Signature-256 header."),
          "content type": en(["json", "form"], "Payload encoding."),
          active: bool("Deliver events (default true)."),
        },
        verbs: "lgcud",
        custom: [
          { v: "ping", d: "Send a ping event to a webhook to check that its URL is reachable." },
          { v: "list", o: "deliveries", d: "List recent deliveries of a webhook with their HTTP status codes and durations, to debug failing hooks." },
        ],
      },
      {
        n: "collaborator",
        what: "Collaborators are users with explicit access to the repository.",
        id: { "username!": str("GitHub login of the user.") },
        filters: { affiliation: en(["outside", "direct", "all"], "Which collaborators to include."), permission: en(["pull", "triage", "push", "maintain", "admin"], "Only users with this permission.") },
        verbs: "l",
        custom: [
          { v: "add", d: "Invite a user to collaborate on the repository with the given permission level. They must accept the invitation.", p: { permission: en(["pull", "triage", "push", "maintain", "admin"], "Access level (default push).") } },
          { v: "remove", d: "Remove a collaborator's access to the repository. Their forks are not deleted." },
          { v: "get", o: "permission", d: "Check which permission level a user has on the repository (admin, write, read or none)." },
        ],
      },
      {
        n: "workflow run",
        what: "Workflow runs are executions of GitHub Actions workflows.",
        id: { "run id!": int("Numeric ID of the workflow run.") },
        filters: {
          branch: str("Only runs for this branch."),
          event: str("Only runs triggered by this event, e.g. push or pull_request."),
          status: en(["queued", "in_progress", "completed", "success", "failure", "cancelled"], "Run status or conclusion."),
          actor: str("Login of the user who triggered the run."),
        },
        returns: "workflow, status, conclusion, head commit, trigger event and timing",
        verbs: "lg",
        custom: [
          { v: "rerun", d: "Re-run a workflow run, optionally only its failed jobs.", p: { "failed jobs only": bool("Only re-run the jobs that failed.") } },
          { v: "cancel", d: "Cancel a queued or in-progress workflow run." },
          { v: "download", o: "logs", d: "Download the logs of a workflow run; returns the log text of each job, truncated to the last lines when long.", p: { "tail lines": int("Only the last N lines of each job log.") } },
        ],
      },
      {
        n: "gist",
        scope: {},
        where: "",
        id: { "gist id!": str("ID of the gist.") },
        what: "Gists are small shareable snippets or files, public or secret, each a tiny git repository.",
        fields: {
          "files!": obj("Map of file name to {content}."),
          description: str("Description of the gist."),
          public: bool("Create a public gist (default secret)."),
        },
        ufields: { files: obj("Files to add or change; set a file to null to delete it."), description: str("New description.") },
        filters: { since: str("Only gists updated after this ISO 8601 time."), username: str("List this user's public gists instead of your own.") },
        verbs: "lgcud",
      },
      {
        n: "deploy key",
        id: { "key id!": int("ID of the deploy key.") },
        what: "Deploy keys are SSH keys that grant a server access to a single repository.",
        fields: {
          "title!": str("Name for the key, e.g. the server it is installed on."),
          "key!": str("Public SSH key, e.g. ssh-ed25519 AAAA..."),
          "read only": bool("Only allow pulling (default true)."),
        },
        verbs: "lgcd",
      },
    ],
    tools: [
      ["list", "workflows", "List the GitHub Actions workflows defined in a repository, with their file paths and whether they are enabled.", { ...repo }],
      ["run", "workflow", "Trigger a workflow that has a workflow_dispatch trigger, on a branch or tag, with optional inputs.", { ...repo, "workflow id!": str("Workflow file name (e.g. ci.yml) or numeric ID."), "ref!": str("Branch or tag to run the workflow on."), inputs: obj("Values for the workflow's declared inputs.") }],
      ["get", "repository", "Get a repository's metadata: description, default branch, visibility, topics, license, star and fork counts.", { ...repo }],
      ["create", "repository", "Create a new repository for the authenticated user or in an organization.", { "name!": str("Repository name."), org: str("Organization to create it in (default: your account)."), description: str("Short description."), private: bool("Create a private repository."), "auto init": bool("Create an initial commit with a README.") }],
      ["update", "repository", "Change repository settings such as its description, homepage, visibility, default branch or allowed merge methods.", { ...repo, description: str("New description."), homepage: str("Project URL."), private: bool("Make the repository private or public."), "default branch": str("Branch to make the default."), "allow squash merge": bool("Allow squash merging of pull requests."), archived: bool("Archive the repository (read-only).") }],
      ["delete", "repository", "Delete a repository with its issues, wiki and releases. Requires admin rights; this is permanent.", { ...repo }],
      ["fork", "repository", "Fork a repository into your account or an organization. The fork is created asynchronously.", { ...repo, organization: str("Organization to fork into."), "default branch only": bool("Copy only the default branch.") }],
      ["list", "user repositories", "List the public repositories of a user or the repositories of an organization.", { "owner!": str("User or organization login."), type: en(["all", "owner", "member", "public", "private", "forks", "sources"], "Which repositories to include."), sort: en(["created", "updated", "pushed", "full_name"], "Sort order."), "per page": int("Results per page (max 100).") }],
      ["list", "contributors", "List the contributors of a repository sorted by number of commits.", { ...repo, anon: bool("Include anonymous contributors.") }],
      ["list", "repository languages", "List the programming languages used in a repository with the number of bytes of each.", { ...repo }],
      ["get", "file contents", "Get the contents of a file or the listing of a directory in a repository at a branch, tag or commit.", { ...repo, "path!": str("Path of the file or directory, relative to the repository root."), ref: str("Branch, tag or commit SHA (default: the default branch).") }],
      ["create or update", "file", "Create a file or replace its contents with a single commit on a branch. Updating needs the file's current blob SHA.", { ...repo, "path!": str("Path of the file to write."), "content!": str("New file content (plain text)."), "message!": str("Commit message."), branch: str("Branch to commit to (default: the default branch)."), sha: str("Blob SHA of the file being replaced; required when updating.") }],
      ["delete", "file", "Delete a file from a branch with a commit.", { ...repo, "path!": str("Path of the file to delete."), "message!": str("Commit message."), "sha!": str("Blob SHA of the file."), branch: str("Branch to commit to.") }],
      ["push", "files", "Commit several files to a branch in one commit, creating or overwriting them.", { ...repo, "branch!": str("Branch to push to."), "files!": arr("Files to write, each {path, content}.", "object"), "message!": str("Commit message.") }],
      ["get", "readme", "Get the rendered or raw README of a repository.", { ...repo, ref: str("Branch, tag or SHA.") }],
      ["search", "repositories", "Search GitHub repositories by name, description, topics, language and stars using search qualifiers.", { "query!": str("Search query, e.g. 'vector database language:rust stars:>500'."), sort: en(["stars", "forks", "updated"], "Sort field."), "per page": int("Results per page (max 100).") }],
      ["search", "code", "Search source code across GitHub repositories. Supports qualifiers such as repo:, path:, language: and extension:.", { "query!": str("Code search query, e.g. 'useEffect repo:facebook/react path:packages'."), "per page": int("Results per page (max 100)."), page: int("Page number.") }],
      ["search", "issues", "Search issues and pull requests across GitHub with qualifiers like repo:, is:open, label:, author: and involves:.", { "query!": str("Search query, e.g. 'repo:octo/app is:issue is:open label:bug crash'."), sort: en(["comments", "reactions", "created", "updated"], "Sort field."), order: en(["asc", "desc"], "Sort direction."), "per page": int("Results per page (max 100).") }],
      ["search", "users", "Search GitHub users and organizations by login, name, location or follower count.", { "query!": str("Search query, e.g. 'location:berlin followers:>100'."), "per page": int("Results per page.") }],
      ["search", "commits", "Search commit messages across repositories with qualifiers like author:, committer-date: and repo:.", { "query!": str("Search query, e.g. 'fix memory leak repo:nodejs/node'."), sort: en(["author-date", "committer-date"], "Sort field.") }],
      ["get", "me", "Get the profile of the authenticated GitHub user: login, name, email and plan.", {}],
      ["get", "user", "Get the public profile of a GitHub user or organization.", { "username!": str("GitHub login.") }],
      ["list", "notifications", "List notifications for the authenticated user: mentions, review requests and activity on watched repositories.", { all: bool("Include notifications already marked as read."), participating: bool("Only notifications where you are directly involved."), since: str("Only notifications updated after this ISO 8601 time.") }],
      ["mark", "notifications read", "Mark all notifications as read, optionally only those before a given time.", { "last read at": str("ISO 8601 time; notifications updated after it stay unread.") }],
      ["replace", "repository topics", "Replace the topics (tags such as 'rust' or 'machine-learning') shown on a repository's page.", { ...repo, "names!": arr("All topics the repository should have (lowercase, hyphens allowed).") }],
      ["star", "repository", "Star a repository as the authenticated user.", { ...repo }],
      ["unstar", "repository", "Remove your star from a repository.", { ...repo }],
      ["list", "stargazers", "List the users who starred a repository, optionally with the time they starred it.", { ...repo, "per page": int("Results per page (max 100)."), page: int("Page number.") }],
      ["create", "repository from template", "Create a new repository from a template repository, copying its files and optionally all branches.", { "template owner!": str("Owner of the template repository."), "template repo!": str("Name of the template repository."), "name!": str("Name of the new repository."), owner: str("Account or organization that will own it."), private: bool("Make it private."), "include all branches": bool("Copy every branch, not just the default one.") }],
    ],
  };
}

function jira() {
  const issueKey = { "issue key!": str("Issue key such as PROJ-123, or the numeric issue ID.") };
  const projectKey = str("Project key, e.g. PROJ.");
  return {
    where: "in Jira",
    scope: {},
    paging: {
      "start at": int("Index of the first result to return (0-based)."),
      "max results": int("Maximum number of results per page (default 50)."),
    },
    resources: [
      {
        n: "issue",
        id: issueKey,
        what: "Issues are the bugs, stories, tasks and epics tracked in a project.",
        fields: {
          "project key!": projectKey,
          "summary!": str("One-line summary of the issue."),
          "issue type!": en(["Bug", "Task", "Story", "Epic", "Sub-task"], "Type of issue."),
          description: str("Detailed description (plain text or Atlassian Document Format JSON)."),
          priority: en(["Highest", "High", "Medium", "Low", "Lowest"], "Priority name."),
          "assignee account id": str("Atlassian account ID of the assignee."),
          labels: arr("Labels to set (no spaces)."),
          "parent key": str("Parent issue key, for sub-tasks and for stories under an epic."),
          components: arr("Names of project components."),
          "custom fields": obj("Custom field values keyed by field ID, e.g. {\"customfield_10016\": 5}."),
        },
        ufields: {
          summary: str("New summary."),
          description: str("New description."),
          priority: en(["Highest", "High", "Medium", "Low", "Lowest"], "New priority."),
          labels: arr("Replaces all labels."),
          components: arr("Replaces the components."),
          "custom fields": obj("Custom field values to set, keyed by field ID."),
        },
        returns: "summary, status, assignee, reporter, priority, description, comments and custom fields",
        verbs: "gcud",
        notes: { c: "Use list_fields to find the IDs of custom fields such as story points.", d: "Sub-tasks are deleted as well when delete subtasks is true." },
        extra: { d: { "delete subtasks": bool("Also delete the issue's sub-tasks (required if it has any).") }, g: { expand: str("Comma-separated extras such as renderedFields, changelog or transitions.") } },
        custom: [
          { v: "transition", d: "Move an issue through its workflow (e.g. To Do -> In Progress -> Done) by applying a transition. Use get_issue_transitions to find valid transition IDs.", p: { "transition id!": str("ID of the workflow transition to apply."), comment: str("Comment to add with the transition."), resolution: str("Resolution name when closing, e.g. Fixed or Won't Do.") } },
          { v: "get", o: "transitions", d: "List the workflow transitions currently available for an issue, with their target statuses and required fields." },
          { v: "assign", d: "Assign an issue to a user, or unassign it.", p: { "account id!": str("Atlassian account ID, or an empty string to unassign.") } },
          { v: "get", o: "changelog", d: "Get the change history of an issue: who changed which field from what to what, and when." },
        ],
      },
      {
        n: "comment",
        where: "on an issue",
        parent: issueKey,
        id: { "comment id!": str("ID of the comment.") },
        what: "Comments are the discussion on an issue.",
        fields: {
          "body!": str("Comment text; supports wiki markup or ADF."),
          "visibility role": str("Only members of this project role can see the comment."),
        },
        verbs: "lcud",
        verbNames: { c: "add" },
        extra: { l: { "order by": en(["created", "-created"], "Oldest or newest first.") } },
      },
      {
        n: "project",
        id: { "project key!": projectKey },
        what: "Projects group issues under a key and a workflow scheme.",
        fields: {
          "key!": str("Project key: 2-10 uppercase letters."),
          "name!": str("Project name."),
          "lead account id!": str("Account ID of the project lead."),
          "project type": en(["software", "business", "service_desk"], "Type of project."),
          description: str("Project description."),
        },
        ufields: { name: str("New name."), "lead account id": str("New project lead."), description: str("New description.") },
        filters: { query: str("Match against project name or key."), "type key": en(["software", "business", "service_desk"], "Project type.") },
        returns: "name, lead, issue types, components and versions",
        verbs: "lgcud",
        notes: { d: "The project moves to the trash for 60 days before it is removed for good." },
        custom: [
          { v: "list", o: "statuses", d: "List the statuses available in a project, grouped by issue type (e.g. To Do, In Review, Done)." },
        ],
      },
      {
        n: "board",
        id: { "board id!": int("Numeric ID of the board.") },
        what: "Boards show a project's issues as scrum or kanban columns.",
        filters: { "project key": projectKey, type: en(["scrum", "kanban"], "Board type."), name: str("Boards whose name contains this text.") },
        returns: "name, type, column configuration and the project it belongs to",
        verbs: "lg",
        custom: [
          { v: "get", o: "backlog", d: "Get the issues in a board's backlog (not in any active or future sprint), in rank order.", p: { jql: str("Extra JQL to filter the backlog.") } },
          { v: "get", o: "configuration", d: "Get a board's column configuration, estimation field and ranking settings." },
        ],
      },
      {
        n: "sprint",
        id: { "sprint id!": int("Numeric ID of the sprint.") },
        what: "Sprints are time-boxed iterations on a scrum board.",
        fields: {
          "name!": str("Sprint name."),
          "origin board id!": int("Board the sprint belongs to."),
          "start date": str("Planned start as ISO 8601."),
          "end date": str("Planned end as ISO 8601."),
          goal: str("Sprint goal."),
        },
        ufields: { name: str("New name."), "start date": str("New start date."), "end date": str("New end date."), goal: str("New goal.") },
        filters: { "board id!": int("Board whose sprints to list."), state: en(["future", "active", "closed"], "Sprint state.") },
        verbs: "lgcud",
        custom: [
          { v: "start", d: "Start a future sprint, making it the board's active sprint.", p: { "end date": str("When the sprint ends (ISO 8601).") } },
          { v: "complete", d: "Complete the active sprint. Unfinished issues move to the backlog or to the given sprint.", p: { "move open issues to": int("Sprint ID for unfinished issues; omit for the backlog.") } },
          { v: "move issues to", d: "Move issues into a sprint (up to 50 per call), for sprint planning.", p: { "issue keys!": arr("Keys of the issues to move.") } },
        ],
      },
      {
        n: "worklog",
        where: "on an issue",
        parent: issueKey,
        id: { "worklog id!": str("ID of the worklog entry.") },
        what: "Worklogs record time spent working on an issue.",
        fields: {
          "time spent!": str("Time in Jira duration format, e.g. '2h 30m' or '1d'."),
          started: str("When the work started (ISO 8601, default now)."),
          comment: str("What was done."),
        },
        verbs: "lcud",
        verbNames: { c: "add" },
        notes: { c: "The issue's remaining estimate is reduced automatically." },
      },
      {
        n: "attachment",
        id: { "attachment id!": str("ID of the attachment.") },
        returns: "filename, size, MIME type, author and download URL",
        verbs: "gd",
        custom: [
          { v: "add", noId: true, d: "Attach a file to an issue.", p: { ...issueKey, "filename!": str("Name of the file."), "content base64!": str("File content, base64-encoded.") } },
        ],
      },
      {
        n: "version",
        id: { "version id!": str("ID of the version.") },
        what: "Versions (fix versions) are the releases issues are scheduled into.",
        fields: {
          "project key!": projectKey,
          "name!": str("Version name, e.g. 2.4.0."),
          description: str("Description."),
          "start date": str("Start date (YYYY-MM-DD)."),
          "release date": str("Planned release date (YYYY-MM-DD)."),
        },
        ufields: { name: str("New name."), description: str("New description."), "release date": str("New release date.") },
        filters: { "project key!": projectKey, status: en(["released", "unreleased", "archived"], "Version status.") },
        verbs: "lgcu",
        custom: [
          { v: "release", d: "Mark a version as released, optionally moving its unresolved issues to another version.", p: { "release date": str("Release date (default today)."), "move unfixed issues to": str("Version ID for unresolved issues.") } },
        ],
      },
      {
        n: "component",
        id: { "component id!": str("ID of the component.") },
        what: "Components are sub-sections of a project, each with an optional default assignee.",
        fields: {
          "project key!": projectKey,
          "name!": str("Component name."),
          description: str("Description."),
          "lead account id": str("Component lead."),
          "assignee type": en(["PROJECT_DEFAULT", "COMPONENT_LEAD", "PROJECT_LEAD", "UNASSIGNED"], "Default assignee for new issues."),
        },
        ufields: { name: str("New name."), description: str("New description."), "lead account id": str("New lead.") },
        filters: { "project key!": projectKey },
        verbs: "lcud",
      },
      {
        n: "issue link",
        id: { "link id!": str("ID of the issue link.") },
        fields: {
          "type!": str("Link type name, e.g. Blocks, Duplicate or Relates."),
          "inward issue!": str("Key of the inward issue (e.g. the one that is blocked)."),
          "outward issue!": str("Key of the outward issue (e.g. the blocker)."),
          comment: str("Comment to add to the inward issue."),
        },
        desc: { c: "Link two issues, e.g. mark one as blocking or duplicating another." },
        verbs: "cd",
      },
      {
        n: "watcher",
        parent: issueKey,
        id: { "account id!": str("Atlassian account ID of the user.") },
        verbs: "l",
        desc: { l: "List the users watching an issue; watchers are notified of every change." },
        custom: [
          { v: "add", d: "Add a user as a watcher of an issue so they get notifications." },
          { v: "remove", d: "Stop a user from watching an issue." },
        ],
      },
      {
        n: "filter",
        id: { "filter id!": str("ID of the saved filter.") },
        what: "Saved filters are named JQL searches that can be shared and subscribed to.",
        fields: {
          "name!": str("Filter name."),
          "jql!": str("JQL query the filter runs."),
          description: str("Description."),
          favourite: bool("Star the filter for the current user."),
        },
        filters: { "filter name": str("Filters whose name contains this text."), owner: str("Account ID of the owner.") },
        verbs: "lgcd",
      },
    ],
    tools: [
      ["search", "issues", "Search for issues with JQL (Jira Query Language), e.g. 'project = WEB AND status = \"In Progress\" AND assignee = currentUser()'. Returns the requested fields of each match.", { "jql!": str("JQL query."), fields: arr("Fields to return (default: summary, status, assignee, priority)."), "start at": int("Index of the first result."), "max results": int("Page size (max 100).") }],
      ["bulk create", "issues", "Create up to 50 issues in one request; each entry has the same fields as create_issue.", { "issues!": arr("Issues to create, each {project key, summary, issue type, ...}.", "object") }],
      ["search", "users", "Find Jira users by display name or email address, to get their account IDs for assigning issues.", { "query!": str("Name or email fragment."), "max results": int("Maximum users to return.") }],
      ["get", "user", "Get a user's display name, email, time zone and active status from their account ID.", { "account id!": str("Atlassian account ID.") }],
      ["get", "myself", "Get the profile of the user the integration is authenticated as.", {}],
      ["list", "fields", "List all system and custom fields with their IDs, names and types (e.g. find the ID of 'Story Points').", { "custom only": bool("Only custom fields.") }],
      ["list", "priorities", "List the issue priorities configured on the site, in order.", {}],
      ["list", "issue link types", "List the link types that can relate issues (Blocks, Clones, Duplicate, Relates...) with their inward and outward descriptions.", {}],
    ],
  };
}

function pg() {
  const db = { database: str("Database to run against (default: the connection's database).") };
  const table = {
    "table!": str("Table name, optionally schema-qualified (schema.table)."),
  };
  const schemaP = { schema: str("Schema name (default public).") };
  const where = (what) => obj(`${what} Column-to-value map combined with AND; values may be {op, value} with op one of =, <>, <, >, <=, >=, like, ilike, in, is null.`);
  return {
    tools: [
      ["execute", "query", "Run a read-only SQL query (SELECT, WITH, SHOW) inside a READ ONLY transaction and return the rows as JSON. Use parameters ($1, $2...) instead of string concatenation.", { ...db, "sql!": str("The SQL query."), params: arr("Values for $1, $2, ... placeholders.", "string"), "row limit": int("Stop after this many rows (default 1000).") }],
      ["execute", "statement", "Execute a data-changing or DDL SQL statement (INSERT, UPDATE, DELETE, CREATE, ALTER...) and return the affected row count. Runs in its own transaction.", { ...db, "sql!": str("The SQL statement."), params: arr("Values for the $n placeholders.") }],
      ["explain", "query", "Show the execution plan PostgreSQL chooses for a query; with analyze, run it and report actual timings and row counts per plan node.", { ...db, "sql!": str("The query to explain."), analyze: bool("Actually execute the query (EXPLAIN ANALYZE)."), buffers: bool("Include shared buffer hit/read counts."), format: en(["text", "json"], "Plan output format.") }],
      ["list", "databases", "List the databases on the server with their owners, encodings and sizes.", {}],
      ["create", "database", "Create a new database.", { "name!": str("Database name."), owner: str("Role that will own it."), encoding: str("Character encoding (default UTF8)."), template: str("Template database to copy (default template1).") }],
      ["drop", "database", "Drop a database and everything in it. Fails while other sessions are connected unless force is set.", { "name!": str("Database to drop."), force: bool("Terminate other connections first (WITH (FORCE)).") }],
      ["list", "schemas", "List the schemas of the database with their owners, excluding system schemas unless asked.", { ...db, "include system": bool("Include pg_catalog, information_schema and pg_toast.") }],
      ["create", "schema", "Create a schema (namespace for tables, views and functions).", { ...db, "name!": str("Schema name."), owner: str("Role that owns the schema."), "if not exists": bool("Do nothing if it already exists.") }],
      ["drop", "schema", "Drop a schema; with cascade, also every object in it.", { ...db, "name!": str("Schema name."), cascade: bool("Also drop the objects it contains.") }],
      ["list", "tables", "List tables in a schema with estimated row counts and total sizes.", { ...db, ...schemaP, "name pattern": str("SQL LIKE pattern on table names, e.g. 'order%'."), "include views": bool("Also list views and materialized views.") }],
      ["describe", "table", "Describe a table's structure: columns with data types, nullability and defaults, plus its primary key, foreign keys, unique and check constraints, and indexes.", { ...db, ...table }],
      ["create", "table", "Create a table from a list of column definitions.", { ...db, ...table, "columns!": arr("Columns, each {name, type, nullable, default}.", "object"), "primary key": arr("Column names forming the primary key."), "if not exists": bool("Skip if the table exists.") }],
      ["drop", "table", "Drop a table. With cascade, dependent views and foreign keys are dropped too.", { ...db, ...table, cascade: bool("Also drop dependent objects."), "if exists": bool("Do not fail if the table is missing.") }],
      ["rename", "table", "Rename a table (ALTER TABLE ... RENAME TO).", { ...db, ...table, "new name!": str("New table name (same schema).") }],
      ["truncate", "table", "Remove all rows from a table instantly without scanning it. Much faster than DELETE for large tables.", { ...db, ...table, "restart identity": bool("Reset sequences owned by the table's columns."), cascade: bool("Also truncate tables with foreign keys to this one.") }],
      ["add", "column", "Add a column to an existing table.", { ...db, ...table, "column!": str("New column name."), "data type!": str("PostgreSQL type, e.g. text, integer, timestamptz, jsonb."), nullable: bool("Allow NULLs (default true)."), default: str("Default value expression.") }],
      ["drop", "column", "Remove a column from a table.", { ...db, ...table, "column!": str("Column to drop."), cascade: bool("Also drop views and constraints depending on it.") }],
      ["rename", "column", "Rename a column of a table.", { ...db, ...table, "column!": str("Current column name."), "new name!": str("New column name.") }],
      ["alter", "column type", "Change a column's data type, converting the existing values with an optional USING expression.", { ...db, ...table, "column!": str("Column to change."), "data type!": str("New type."), using: str("Conversion expression, e.g. amount::numeric(12,2).") }],
      ["set", "column default", "Set or remove the default value of a column.", { ...db, ...table, "column!": str("Column name."), default: str("Default expression; omit to drop the default.") }],
      ["list", "indexes", "List indexes of a table or schema with their definitions, sizes and how often they are scanned.", { ...db, ...schemaP, table: str("Only indexes of this table.") }],
      ["create", "index", "Create an index on one or more columns, optionally unique, partial or concurrently (without blocking writes).", { ...db, ...table, "columns!": arr("Columns or expressions to index, in order."), name: str("Index name (generated if omitted)."), unique: bool("Enforce uniqueness."), method: en(["btree", "hash", "gin", "gist", "brin"], "Index access method (default btree)."), concurrently: bool("Build without locking out writes."), where: str("Predicate for a partial index.") }],
      ["drop", "index", "Drop an index, e.g. one that list_unused_indexes reports as never used.", { ...db, "name!": str("Index name, optionally schema-qualified."), concurrently: bool("Drop without blocking concurrent queries.") }],
      ["reindex", "table", "Rebuild all indexes of a table, e.g. to remove index bloat.", { ...db, ...table, concurrently: bool("Rebuild without blocking writes.") }],
      ["list", "views", "List views and materialized views with their definitions.", { ...db, ...schemaP }],
      ["create", "view", "Create or replace a view defined by a SELECT query, optionally materialized.", { ...db, "name!": str("View name."), "query!": str("The SELECT that defines the view."), materialized: bool("Create a materialized view that stores its rows."), "or replace": bool("Replace an existing view of the same name.") }],
      ["drop", "view", "Drop a view or materialized view.", { ...db, "name!": str("View name."), materialized: bool("It is a materialized view."), cascade: bool("Also drop dependent objects.") }],
      ["refresh", "materialized view", "Recompute the rows of a materialized view; concurrently lets reads continue (needs a unique index).", { ...db, "name!": str("Materialized view name."), concurrently: bool("Refresh without locking out SELECTs.") }],
      ["list", "functions", "List user-defined functions and procedures with their arguments, return types and languages.", { ...db, ...schemaP }],
      ["list", "triggers", "List the triggers on a table with their timing, events and the function they call.", { ...db, ...table }],
      ["list", "constraints", "List the constraints of a table: primary key, foreign keys with their referenced tables, unique and check constraints.", { ...db, ...table }],
      ["add", "foreign key", "Add a foreign key constraint from columns of one table to another table's key.", { ...db, ...table, "columns!": arr("Referencing columns."), "references table!": str("Referenced table."), "references columns!": arr("Referenced columns."), "on delete": en(["no action", "restrict", "cascade", "set null"], "Action when the referenced row is deleted.") }],
      ["select", "rows", "Read rows from a table with simple equality or comparison filters, ordering and a limit, without writing SQL.", { ...db, ...table, columns: arr("Columns to return (default all)."), where: where("Filters on the rows."), "order by": str("Column to sort by; prefix with - for descending."), limit: int("Maximum rows (default 100)."), offset: int("Rows to skip.") }],
      ["search", "rows", "Find rows whose text column matches a pattern (case-insensitive ILIKE or a POSIX regular expression), e.g. customers whose email ends with a domain.", { ...db, ...table, "column!": str("Column to match, e.g. email."), "pattern!": str("ILIKE pattern such as '%@example.com', or a regex when regex is true."), regex: bool("Treat the pattern as a POSIX regular expression."), limit: int("Maximum rows to return.") }],
      ["count", "rows", "Count the rows of a table, optionally only those matching filters. Use estimate for a fast approximate count on big tables.", { ...db, ...table, where: where("Rows to count."), estimate: bool("Return the planner's estimate instead of an exact count.") }],
      ["insert", "rows", "Insert one or more rows into a table and return the inserted rows (RETURNING *).", { ...db, ...table, "rows!": arr("Rows to insert, each an object of column to value.", "object"), "on conflict do nothing": bool("Skip rows that violate a unique constraint.") }],
      ["upsert", "rows", "Insert rows or update the existing ones on a unique-key conflict (INSERT ... ON CONFLICT DO UPDATE).", { ...db, ...table, "rows!": arr("Rows to write.", "object"), "conflict columns!": arr("Columns of the unique constraint that detects an existing row.") }],
      ["update", "rows", "Update the rows that match filters, setting columns to new values; returns the number of rows changed.", { ...db, ...table, "set!": obj("Column-to-new-value map."), "where!": where("Which rows to update (required, to avoid updating the whole table).") }],
      ["delete", "rows", "Delete the rows that match filters and return how many were removed.", { ...db, ...table, "where!": where("Which rows to delete (required).") }],
      ["export", "query csv", "Run a SELECT and return the result as CSV text with a header row, for spreadsheets or downloads.", { ...db, "sql!": str("The query."), delimiter: str("Field separator (default comma).") }],
      ["list", "roles", "List database roles (users and groups) with their attributes such as LOGIN, SUPERUSER and CREATEDB, and group memberships.", {}],
      ["create", "role", "Create a role, usually a login user with a password.", { "name!": str("Role name."), login: bool("Allow logging in (a user)."), password: str("Password for the role."), createdb: bool("May create databases."), "member of": arr("Roles to grant membership in.") }],
      ["drop", "role", "Drop a role. It must not own objects (reassign or drop them first).", { "name!": str("Role name.") }],
      ["grant", "privileges", "Grant privileges (SELECT, INSERT, UPDATE, DELETE, USAGE, ALL...) on a table, schema or all tables of a schema to a role.", { ...db, "privileges!": arr("Privileges to grant."), "on!": str("Object, e.g. 'TABLE orders', 'SCHEMA app' or 'ALL TABLES IN SCHEMA app'."), "to role!": str("Role receiving the privileges.") }],
      ["revoke", "privileges", "Revoke previously granted privileges from a role.", { ...db, "privileges!": arr("Privileges to revoke."), "on!": str("Object the privileges are on."), "from role!": str("Role to revoke from.") }],
      ["list", "extensions", "List installed extensions with versions, and optionally the ones available to install.", { ...db, available: bool("Also list extensions that can be installed.") }],
      ["create", "extension", "Install an extension such as pgcrypto, postgis, pg_trgm or pg_stat_statements.", { ...db, "name!": str("Extension name."), schema: str("Schema to install into.") }],
      ["list", "active queries", "Show what is running now (pg_stat_activity): pid, user, state, wait event, query text and how long it has been running.", { "min duration seconds": num("Only queries running longer than this."), "include idle": bool("Include idle connections.") }],
      ["cancel", "query", "Cancel the query running in a backend (pg_cancel_backend); the connection stays open.", { "pid!": int("Process ID of the backend, from list_active_queries.") }],
      ["terminate", "backend", "Terminate a backend connection (pg_terminate_backend), rolling back its transaction.", { "pid!": int("Process ID of the backend.") }],
      ["list", "locks", "List locks held and awaited, showing which sessions are blocked and by whom.", { ...db, "blocked only": bool("Only show waiting locks and their blockers.") }],
      ["list", "slow queries", "List the most expensive statements from pg_stat_statements by total or mean execution time.", { ...db, "order by": en(["total_time", "mean_time", "calls"], "Ranking (default total_time)."), limit: int("Number of statements (default 20).") }],
      ["vacuum", "table", "VACUUM a table to reclaim space from dead rows, optionally FULL (rewrites the table, exclusive lock) and ANALYZE.", { ...db, ...table, full: bool("Rewrite the table to return space to the OS."), analyze: bool("Also update planner statistics.") }],
      ["analyze", "table", "Collect fresh planner statistics for a table (ANALYZE), e.g. after a bulk load.", { ...db, ...table }],
      ["get", "database size", "Get the on-disk size of a database and its ten largest tables including indexes and TOAST.", { ...db }],
      ["get", "replication status", "Show streaming replication status: connected replicas, their state and replay lag in bytes and seconds.", {}],
      ["get", "settings", "Show server configuration parameters (SHOW / pg_settings) with their current values, units and sources.", { "name pattern": str("LIKE pattern on setting names, e.g. 'work_mem' or 'autovacuum%'.") }],
      ["list", "unused indexes", "List indexes that have never been scanned since statistics were reset, with their sizes, as candidates to drop.", { ...db, ...schemaP }],
    ],
  };
}

function k8s() {
  const ctx = { context: str("kubeconfig context to use (default: the current context).") };
  const ns = { namespace: str("Namespace (default: the context's namespace, usually 'default').") };
  const name = (kind) => ({ "name!": str(`Name of the ${kind}.`) });
  const selectors = {
    "label selector": str("Label selector, e.g. 'app=web,tier!=cache'."),
    "field selector": str("Field selector, e.g. 'status.phase=Running'."),
    "all namespaces": bool("List across every namespace."),
  };
  const nsRes = (r) => ({ parent: ns, filters: selectors, filterText: "label and field selectors", ...r });
  const manifestHint = "Creates the object through the API server, like kubectl create.";
  return {
    where: "in a namespace",
    scope: ctx,
    paging: {
      limit: int("Maximum number of objects to return."),
      "continue token": str("The continue token from a previous page."),
    },
    resources: [
      nsRes({
        n: "pod",
        id: name("pod"),
        what: "Pods are the smallest deployable units: one or more containers sharing network and storage.",
        returns: "phase, node, IPs, container statuses, restart counts, conditions and recent events",
        verbs: "lgd",
        notes: { d: "Pods owned by a controller (Deployment, StatefulSet, Job) are recreated automatically." },
        extra: { d: { "grace period seconds": int("Seconds to wait for graceful shutdown; 0 forces immediate deletion.") } },
        custom: [
          { v: "get", o: "logs", d: "Get the logs of a pod's container, like kubectl logs. Use previous to see the logs of a crashed container.", p: { container: str("Container name (required when the pod has several)."), "tail lines": int("Only the last N lines."), "since seconds": int("Only logs newer than this many seconds."), previous: bool("Logs of the previous, terminated container instance."), timestamps: bool("Prefix each line with its timestamp.") } },
          { v: "exec in", d: "Run a command inside a running container of a pod and return its stdout, stderr and exit code, like kubectl exec.", p: { "command!": arr("Command and arguments, e.g. [\"sh\", \"-c\", \"ls /data\"]."), container: str("Container name.") } },
          { v: "port forward", d: "Forward a local port to a port of a pod for a limited time, like kubectl port-forward. Returns the local address.", p: { "pod port!": int("Port on the pod."), "local port": int("Local port (default: a free one)."), "duration seconds": int("How long to keep the forward open (default 300).") } },
          { v: "get", o: "metrics", d: "Get current CPU and memory usage of a pod's containers from metrics-server, like kubectl top pod." },
        ],
      }),
      nsRes({
        n: "deployment",
        id: name("deployment"),
        what: "Deployments manage replicated stateless pods and roll out new versions gradually.",
        fields: {
          "name!": str("Deployment name."),
          "image!": str("Container image, e.g. nginx:1.27."),
          replicas: int("Desired number of pods (default 1)."),
          "container port": int("Port the container listens on."),
          env: obj("Environment variables for the container, as name to value."),
          labels: obj("Labels for the deployment and its pod template."),
        },
        ufields: { image: str("New container image; triggers a rolling update."), replicas: int("New replica count."), env: obj("Environment variables to set.") },
        returns: "desired, updated, ready and available replicas, strategy, pod template and conditions",
        verbs: "lgcud",
        notes: { c: manifestHint },
        custom: [
          { v: "scale", d: "Change the number of replicas of a deployment, like kubectl scale.", p: { "replicas!": int("Desired replica count (0 stops all pods).", { minimum: 0 }) } },
          { v: "restart", d: "Restart all pods of a deployment with a rolling restart (kubectl rollout restart), e.g. to pick up a changed ConfigMap." },
          { v: "get", o: "rollout status", d: "Report the progress of a deployment's rollout: updated and available replicas, and whether it is complete or stuck." },
          { v: "rollback", d: "Roll a deployment back to a previous revision (kubectl rollout undo).", p: { "to revision": int("Revision number (default: the previous one).") } },
          { v: "list", o: "revisions", d: "List the rollout history of a deployment: revision numbers, images and change causes." },
        ],
      }),
      nsRes({
        n: "service",
        id: name("service"),
        what: "Services give a stable virtual IP and DNS name to a set of pods.",
        fields: {
          "name!": str("Service name."),
          "selector!": obj("Pod labels the service routes to, e.g. {\"app\": \"web\"}."),
          "ports!": arr("Ports, each {port, target port, protocol, name}.", "object"),
          type: en(["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"], "Service type (default ClusterIP)."),
        },
        returns: "type, cluster IP, external IPs, ports and selector",
        verbs: "lgcd",
        custom: [
          { v: "get", o: "endpoints", d: "List the pod IPs and ports a service currently routes to; empty endpoints usually mean the selector matches no ready pods." },
        ],
      }),
      nsRes({
        n: "config map",
        id: name("config map"),
        what: "ConfigMaps hold non-confidential configuration as key/value pairs or files.",
        fields: { "name!": str("ConfigMap name."), "data!": obj("Key/value pairs; values are strings or file contents.") },
        ufields: { data: obj("Keys to set; existing keys not listed are kept.") },
        verbs: "lgcud",
      }),
      nsRes({
        n: "secret",
        id: name("secret"),
        what: "Secrets hold passwords, tokens and keys for pods.",
        fields: {
          "name!": str("Secret name."),
          "string data!": obj("Key/value pairs in plain text; they are base64-encoded for you."),
          type: str("Secret type, e.g. Opaque or kubernetes.io/tls (default Opaque)."),
        },
        returns: "type and keys; values are redacted unless reveal is set",
        verbs: "lgcd",
        extra: { g: { reveal: bool("Return decoded values instead of redacting them.") } },
      }),
      nsRes({
        n: "job",
        id: name("job"),
        what: "Jobs run pods to completion, retrying failures up to a backoff limit.",
        fields: {
          "name!": str("Job name."),
          "image!": str("Container image."),
          command: arr("Command and arguments."),
          "backoff limit": int("Retries before the job is marked failed (default 6)."),
        },
        verbs: "lgcd",
        notes: { d: "Its pods are deleted with it." },
      }),
      nsRes({
        n: "cron job",
        id: name("cron job"),
        what: "CronJobs create Jobs on a repeating schedule.",
        fields: {
          "name!": str("CronJob name."),
          "schedule!": str("Cron expression, e.g. '0 3 * * *' for 03:00 daily."),
          "image!": str("Container image."),
          command: arr("Command and arguments."),
          "time zone": str("IANA time zone for the schedule, e.g. Europe/Paris."),
        },
        ufields: { schedule: str("New cron expression."), image: str("New image."), command: arr("New command.") },
        verbs: "lgcud",
        custom: [
          { v: "suspend", d: "Suspend a CronJob so no new Jobs are scheduled; running Jobs continue." },
          { v: "resume", d: "Resume a suspended CronJob." },
          { v: "trigger", d: "Run a CronJob now by creating a Job from its template, like kubectl create job --from=cronjob/name.", p: { "job name": str("Name for the created Job.") } },
        ],
      }),
      nsRes({
        n: "ingress",
        pl: "ingresses",
        id: name("ingress"),
        what: "Ingresses route external HTTP(S) traffic by host and path to services.",
        fields: {
          "name!": str("Ingress name."),
          "host!": str("Host name, e.g. app.example.com."),
          "service name!": str("Backend service."),
          "service port!": int("Backend service port."),
          path: str("URL path prefix (default /)."),
          "tls secret": str("Secret with the TLS certificate for the host."),
          "ingress class": str("Ingress class, e.g. nginx."),
        },
        verbs: "lgcd",
      }),
      nsRes({
        n: "persistent volume claim",
        id: name("persistent volume claim"),
        what: "PersistentVolumeClaims request durable storage for pods.",
        fields: {
          "name!": str("Claim name."),
          "size!": str("Requested capacity, e.g. 10Gi."),
          "storage class": str("StorageClass to provision from."),
          "access modes": arr("ReadWriteOnce, ReadOnlyMany or ReadWriteMany."),
        },
        returns: "status, bound volume, capacity, access modes and storage class",
        verbs: "lgcd",
        notes: { d: "Depending on the reclaim policy the underlying volume and its data may be deleted." },
        custom: [{ v: "resize", d: "Expand a PersistentVolumeClaim to a larger size (the storage class must allow volume expansion).", p: { "size!": str("New size, e.g. 50Gi.") } }],
      }),
      nsRes({
        n: "stateful set",
        id: name("stateful set"),
        what: "StatefulSets run pods with stable names and per-pod storage, e.g. databases.",
        verbs: "lgd",
        custom: [
          { v: "scale", d: "Change the replica count of a StatefulSet; pods are added or removed in order.", p: { "replicas!": int("Desired replicas.", { minimum: 0 }) } },
          { v: "restart", d: "Rolling-restart the pods of a StatefulSet, highest ordinal first." },
        ],
      }),
      nsRes({
        n: "daemon set",
        id: name("daemon set"),
        what: "DaemonSets run one pod on every (matching) node, e.g. log shippers.",
        verbs: "lg",
        custom: [{ v: "restart", d: "Rolling-restart the pods of a DaemonSet node by node." }],
      }),
      nsRes({
        n: "horizontal pod autoscaler",
        id: name("autoscaler"),
        what: "HorizontalPodAutoscalers scale a workload's replicas on CPU or memory usage.",
        fields: {
          "name!": str("Autoscaler name."),
          "target deployment!": str("Deployment to scale."),
          "min replicas": int("Lower bound (default 1)."),
          "max replicas!": int("Upper bound."),
          "cpu utilization": int("Target average CPU utilization in percent."),
        },
        returns: "current and desired replicas, targets and current metric values",
        verbs: "lgcd",
      }),
      {
        n: "namespace",
        id: name("namespace"),
        what: "Namespaces partition cluster resources between teams or environments.",
        fields: { "name!": str("Namespace name."), labels: obj("Labels to set.") },
        filters: { "label selector": str("Label selector.") },
        verbs: "lgcd",
        notes: { d: "Every object in the namespace is deleted with it." },
      },
      {
        n: "node",
        id: name("node"),
        what: "Nodes are the machines that run pods.",
        filters: { "label selector": str("Label selector, e.g. 'node-role.kubernetes.io/worker'.") },
        returns: "capacity, allocatable resources, conditions, taints, kubelet version and the pods running on it",
        verbs: "lg",
        custom: [
          { v: "cordon", d: "Mark a node unschedulable so no new pods are placed on it; running pods stay." },
          { v: "uncordon", d: "Mark a node schedulable again after maintenance." },
          { v: "drain", d: "Evict all pods from a node before maintenance, respecting PodDisruptionBudgets, like kubectl drain.", p: { "ignore daemon sets": bool("Skip DaemonSet pods (usually required)."), "delete emptydir data": bool("Allow evicting pods that use emptyDir volumes."), "timeout seconds": int("Give up after this long.") } },
          { v: "get", o: "metrics", d: "Get current CPU and memory usage of a node, like kubectl top node." },
        ],
      },
    ],
    tools: [
      ["apply", "manifest", "Apply one or more YAML or JSON manifests to the cluster (create or update), like kubectl apply -f.", { ...ctx, ...ns, "manifest!": str("YAML (multiple documents allowed) or JSON."), "dry run": bool("Validate on the server without persisting."), "server side": bool("Use server-side apply.") }],
      ["get", "resource", "Get any Kubernetes object by API version, kind and name, including custom resources, as YAML.", { ...ctx, ...ns, "kind!": str("Kind, e.g. Certificate or VirtualService."), "name!": str("Object name."), "api version": str("API version, e.g. cert-manager.io/v1.") }],
      ["delete", "resource", "Delete any Kubernetes object by kind and name.", { ...ctx, ...ns, "kind!": str("Kind of the object."), "name!": str("Object name."), "api version": str("API version.") }],
      ["list", "events", "List cluster events (scheduling failures, image pull errors, OOM kills, probe failures), newest first.", { ...ctx, ...ns, "involved object": str("Only events about this object, as kind/name, e.g. pod/web-1."), type: en(["Normal", "Warning"], "Event type."), "all namespaces": bool("Events from every namespace.") }],
      ["list", "api resources", "List the resource kinds the cluster serves, with short names, API groups and whether they are namespaced.", { ...ctx }],
      ["get", "cluster info", "Get the cluster's Kubernetes version, API server address and node count.", { ...ctx }],
      ["list", "contexts", "List the contexts in the kubeconfig and which one is current.", {}],
    ],
  };
}

function weather() {
  const loc = { "location!": str("City name, postal code, airport code or 'lat,lon'.") };
  const units = { units: en(["metric", "imperial"], "Units for temperature, wind and precipitation (default metric).") };
  return {
    tools: [
      ["get", "current weather", "Get the current conditions at a location: temperature, feels-like, humidity, wind, pressure, cloud cover and a short summary.", { ...loc, ...units }],
      ["get", "hourly forecast", "Get an hour-by-hour forecast for up to 48 hours: temperature, chance and amount of precipitation, wind and conditions.", { ...loc, ...units, hours: int("Number of hours (default 24, max 48).") }],
      ["get", "daily forecast", "Get a day-by-day forecast for up to 14 days with highs, lows, precipitation probability and a summary per day.", { ...loc, ...units, days: int("Number of days (default 7, max 14).") }],
      ["get", "weather alerts", "Get active severe weather warnings and watches (storms, floods, heat, winter weather) issued for a location.", { ...loc, severity: en(["minor", "moderate", "severe", "extreme"], "Minimum severity.") }],
      ["get", "air quality", "Get the air quality index and pollutant concentrations (PM2.5, PM10, ozone, NO2) now and for the next days.", { ...loc, "include forecast": bool("Add a 3-day forecast.") }],
      ["get", "uv index", "Get the UV index now and its daily maximum, with sun protection advice.", { ...loc }],
      ["get", "pollen count", "Get pollen levels for grass, tree and weed pollen, for allergy sufferers.", { ...loc, days: int("Days of forecast (default 3).") }],
      ["get", "marine forecast", "Get the marine forecast for a coastal point: wave height and period, swell direction, sea temperature and wind.", { ...loc, ...units, days: int("Days ahead (default 3).") }],
      ["get", "historical weather", "Get observed weather for a past date or date range at a location: temperatures, precipitation and wind.", { ...loc, ...units, "start date!": str("First day (YYYY-MM-DD)."), "end date": str("Last day (default: start date).") }],
      ["get", "sunrise sunset", "Get sunrise, sunset, solar noon, day length and twilight times for a location and date.", { ...loc, date: str("Date (default today).") }],
      ["get", "moon phase", "Get the moon phase, illumination and moonrise/moonset times for a date.", { ...loc, date: str("Date (default today).") }],
      ["get", "precipitation radar", "Get a radar image (PNG) of precipitation around a location, now or a short nowcast ahead.", { ...loc, "minutes ahead": int("0 for now, up to 120 for the nowcast."), zoom: int("Map zoom 4-12.") }],
      ["get", "minutely precipitation", "Get minute-by-minute rain or snow intensity for the next hour, e.g. to know when the rain will stop.", { ...loc }],
      ["get", "climate normals", "Get 30-year climate averages for a location by month: mean temperatures, rainfall and sunshine hours.", { ...loc, ...units, month: int("Only this month (1-12).") }],
      ["get", "wind forecast", "Get wind speed, gusts and direction by hour at a given height, for sailing, drones or cycling.", { ...loc, ...units, "height meters": int("Height above ground (default 10)."), hours: int("Hours ahead (default 24).") }],
      ["get", "snow report", "Get snow depth, new snowfall and freezing level for mountain and ski areas.", { ...loc, ...units }],
      ["get", "frost dates", "Get the average last spring frost and first autumn frost dates for gardening.", { ...loc }],
      ["search", "locations", "Find places matching a name to disambiguate a location (e.g. Portland, Oregon vs. Portland, Maine) and get their coordinates.", { "query!": str("Place name."), country: str("ISO country code to restrict to."), limit: int("Maximum results.") }],
      ["list", "weather stations", "List weather stations near a location with their IDs, distances and elevations.", { ...loc, radius: int("Search radius in kilometers (default 50).") }],
      ["get", "station observations", "Get the latest raw observations reported by a specific weather station (METAR-like).", { "station id!": str("Station ID."), hours: int("Hours of history (default 1).") }],
      ["compare", "weather", "Compare today's forecast for several locations side by side, e.g. to pick where to go for the weekend.", { "locations!": arr("Locations to compare."), ...units, date: str("Day to compare (default today).") }],
      ["get", "heat index", "Get the heat index and wet-bulb temperature for heat-stress risk at work or sports.", { ...loc, ...units }],
    ],
  };
}

function fs() {
  const path = (what = "File path, absolute or relative to an allowed directory.") => ({ "path!": str(what) });
  return {
    tools: [
      ["read", "file", "Read the complete contents of a text file. Fails for files larger than 10 MB; use read_file_lines for slices of big files.", { ...path(), encoding: en(["utf-8", "latin1", "base64"], "How to decode the bytes (default utf-8).") }],
      ["read", "multiple files", "Read several files at once; a file that cannot be read reports an error without failing the others.", { "paths!": arr("Paths of the files to read.") }],
      ["read", "file lines", "Read a range of lines from a text file, e.g. lines 200-260 of a large log.", { ...path(), "start line!": int("First line, 1-based."), "end line": int("Last line (inclusive); default: 100 lines after the start.") }],
      ["head", "file", "Return the first lines of a file.", { ...path(), lines: int("Number of lines (default 10).") }],
      ["tail", "file", "Return the last lines of a file, e.g. the end of a log.", { ...path(), lines: int("Number of lines (default 10).") }],
      ["read", "media file", "Read an image or audio file and return it as base64 with its MIME type.", { ...path() }],
      ["write", "file", "Create a file or overwrite it completely with new content.", { ...path(), "content!": str("Text to write."), "create parents": bool("Create missing parent directories.") }],
      ["append", "to file", "Append text to the end of a file, creating it if it does not exist.", { ...path(), "content!": str("Text to append."), newline: bool("Add a newline before the text if the file does not end with one.") }],
      ["edit", "file", "Make targeted edits to a text file by replacing exact text snippets; returns a git-style diff of the changes.", { ...path(), "edits!": arr("Replacements, each {old text, new text}; old text must match exactly once.", "object"), "dry run": bool("Show the diff without writing.") }],
      ["create", "directory", "Create a directory, including missing parents; succeeds silently if it exists.", { ...path("Directory to create.") }],
      ["list", "directory", "List the entries of a directory, marking each as [FILE] or [DIR].", { ...path("Directory to list."), "include hidden": bool("Include dotfiles."), details: bool("Include sizes and modification times.") }],
      ["get", "directory tree", "Return a recursive JSON tree of a directory's files and subdirectories.", { ...path("Root directory."), "max depth": int("How deep to descend (default 5)."), exclude: arr("Glob patterns to skip, e.g. node_modules.") }],
      ["move", "file", "Move or rename a file or directory. Fails if the destination exists unless overwrite is set.", { "source!": str("Current path."), "destination!": str("New path."), overwrite: bool("Replace an existing destination.") }],
      ["copy", "file", "Copy a file, or a directory recursively, to a new location.", { "source!": str("Path to copy."), "destination!": str("Target path."), recursive: bool("Required to copy directories."), overwrite: bool("Replace existing files.") }],
      ["delete", "file", "Delete a single file.", { ...path() }],
      ["delete", "directory", "Delete a directory; it must be empty unless recursive is set.", { ...path("Directory to delete."), recursive: bool("Delete everything inside it too.") }],
      ["get", "file info", "Get metadata for a file or directory: size, type, permissions, owner, and creation, modification and access times.", { ...path() }],
      ["search", "files", "Find files and directories whose names match a glob pattern under a root, recursively.", { "root!": str("Directory to search from."), "pattern!": str("Glob, e.g. '**/*.test.ts' or 'config.*'."), exclude: arr("Globs to skip."), "max results": int("Stop after this many matches.") }],
      ["search", "file contents", "Search inside files for a regular expression (like grep -rn) and return matching lines with file names and line numbers.", { "root!": str("Directory to search."), "regex!": str("Regular expression to look for."), include: str("Only files matching this glob, e.g. '*.py'."), "case sensitive": bool("Match case exactly (default false)."), "context lines": int("Lines of context around each match."), "max results": int("Maximum matching lines.") }],
      ["change", "permissions", "Change a file's permission bits, like chmod.", { ...path(), "mode!": str("Octal mode, e.g. 644 or 755."), recursive: bool("Apply to a directory's contents too.") }],
      ["create", "symlink", "Create a symbolic link pointing at a target path.", { "link path!": str("Where to create the link."), "target!": str("Path the link points to.") }],
      ["compute", "file hash", "Compute a checksum of a file to verify integrity or detect changes.", { ...path(), algorithm: en(["md5", "sha1", "sha256", "sha512"], "Hash algorithm (default sha256).") }],
      ["compare", "files", "Compare two text files and return a unified diff.", { "left!": str("First file."), "right!": str("Second file."), "context lines": int("Lines of context (default 3).") }],
      ["create", "archive", "Pack files and directories into a zip or tar.gz archive.", { "paths!": arr("Files and directories to include."), "archive path!": str("Archive to create."), format: en(["zip", "tar.gz"], "Archive format (default zip).") }],
      ["extract", "archive", "Unpack a zip, tar or tar.gz archive into a directory.", { "archive path!": str("Archive to unpack."), "destination!": str("Directory to extract into."), overwrite: bool("Overwrite existing files.") }],
      ["get", "disk usage", "Report the total size of a directory and its largest subdirectories, like du -h.", { ...path("Directory to measure."), depth: int("Levels of subdirectories to report (default 1).") }],
      ["find", "duplicate files", "Find files with identical contents under a directory, grouped by content hash.", { "root!": str("Directory to scan."), "min size bytes": int("Ignore files smaller than this.") }],
      ["list", "allowed directories", "List the directories this server is allowed to access; paths outside them are refused.", {}],
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// camelCase servers

function slack() {
  const channel = { "channel id!": str("Channel ID, e.g. C0123ABCD (a DM or group DM ID works too).") };
  const ts = { "ts!": str("Timestamp of the message, which is its ID within the channel.") };
  return {
    where: "in the workspace",
    paging: { limit: int("Maximum items per page (default 100, max 1000)."), cursor: str("next_cursor from the previous response.") },
    resources: [
      {
        n: "channel",
        id: channel,
        what: "Channels are the public and private conversations of the workspace.",
        fields: { "name!": str("Channel name: lowercase, no spaces, up to 80 characters."), "is private": bool("Create a private channel."), description: str("Channel description.") },
        filters: { types: str("Comma-separated: public_channel, private_channel, mpim, im (default public_channel)."), "exclude archived": bool("Skip archived channels.") },
        returns: "name, topic, purpose, creator, member count and whether it is archived or private",
        verbs: "lgc",
        custom: [
          { v: "archive", d: "Archive a channel: it becomes read-only and leaves the sidebar; it can be unarchived later." },
          { v: "unarchive", d: "Restore an archived channel." },
          { v: "rename", d: "Rename a channel; links and history are kept.", p: { "name!": str("New channel name.") } },
          { v: "set", o: "topic", d: "Set the topic shown at the top of a channel.", p: { "topic!": str("New topic (up to 250 characters).") } },
          { v: "set", o: "purpose", d: "Set the purpose (description) of a channel.", p: { "purpose!": str("New purpose.") } },
          { v: "invite to", d: "Invite one or more users to a channel.", p: { "user ids!": arr("IDs of the users to add.") } },
          { v: "remove user from", d: "Remove (kick) a user from a channel.", p: { "user id!": str("User to remove.") } },
          { v: "join", d: "Join a public channel as the bot or user the server is authenticated as." },
          { v: "leave", d: "Leave a channel; you stop receiving its messages and it leaves your sidebar." },
          { v: "list", o: "members", d: "List the user IDs of a channel's members.", p: { limit: int("Members per page."), cursor: str("Paging cursor.") } },
        ],
      },
      {
        n: "message",
        where: "in a channel",
        parent: channel,
        id: ts,
        what: "Messages are posted in channels and threads.",
        fields: {
          "text!": str("Message text in Slack mrkdwn; also the fallback when blocks are used."),
          blocks: arr("Block Kit layout blocks.", "object"),
          "thread ts": str("Reply in the thread of this parent message."),
          "reply broadcast": bool("Also show a thread reply in the channel."),
          "unfurl links": bool("Expand link previews."),
        },
        ufields: { text: str("New text."), blocks: arr("New blocks.", "object") },
        filters: { oldest: str("Only messages after this timestamp."), latest: str("Only messages before this timestamp."), inclusive: bool("Include messages exactly at oldest/latest.") },
        searchIn: "message text, with modifiers like in:#channel, from:@user, has:link, before: and after:",
        searchScope: {},
        sfilters: { sort: en(["score", "timestamp"], "Rank by relevance or date.") },
        verbs: "lcuds",
        verbNames: { c: "post" },
        desc: { l: "Fetch the message history of a channel or DM, newest first. Thread replies are not included; use getMessageThread." },
        notes: { c: "The message appears as the bot or user the server is authenticated as.", d: "Bots can only delete their own messages." },
        custom: [
          { v: "schedule", noId: true, d: "Schedule a message to be posted in a channel at a future time (up to 120 days ahead).", p: { "text!": str("Message text."), "post at!": int("Unix timestamp (seconds) when to post."), "thread ts": str("Parent message for a thread reply.") } },
          { v: "get", o: "thread", d: "Get all replies in a message's thread, oldest first, starting with the parent message." },
          { v: "pin", d: "Pin a message to the channel so it stays easy to find." },
          { v: "unpin", d: "Unpin a message from the channel." },
          { v: "get", o: "permalink", d: "Get a permanent URL for a message that can be shared or opened in Slack." },
        ],
      },
      {
        n: "reaction",
        parent: { ...channel, ...ts },
        verbs: "l",
        desc: { l: "List the emoji reactions on a message and who added each." },
        custom: [
          { v: "add", d: "React to a message with an emoji.", p: { "name!": str("Emoji name without colons, e.g. thumbsup or eyes.") } },
          { v: "remove", d: "Remove an emoji reaction you added to a message.", p: { "name!": str("Emoji name.") } },
        ],
      },
      {
        n: "user",
        id: { "user id!": str("User ID, e.g. U0123ABCD.") },
        what: "Users are the members, guests and bots of the workspace.",
        filters: { "include locale": bool("Include each user's locale.") },
        returns: "name, display name, title, email, time zone, status and whether the account is a bot or deactivated",
        verbs: "lg",
        custom: [
          { v: "lookup", o: "by email", noId: true, d: "Find a workspace member by email address and return their user ID and profile.", p: { "email!": str("Email address.") } },
          { v: "get", o: "presence", d: "Check whether a user is currently active or away." },
          { v: "set", o: "status", noId: true, d: "Set the custom status (emoji and text, optionally expiring) of the authenticated user.", p: { "status text": str("Status text, e.g. 'In a meeting'."), "status emoji": str("Emoji such as :calendar:."), "expiration": int("Unix time when the status clears (0 = never).") } },
        ],
      },
      {
        n: "file",
        id: { "file id!": str("File ID, e.g. F0123ABCD.") },
        what: "Files are documents, images and snippets shared in conversations.",
        filters: { "channel id": str("Only files shared in this channel."), "user id": str("Only files uploaded by this user."), types: str("Comma-separated: images, pdfs, snippets, spaces...") },
        returns: "name, type, size, uploader, the channels it is shared in and a download URL",
        verbs: "lgd",
        custom: [
          { v: "upload", noId: true, d: "Upload a file (text content or base64) and optionally share it in channels with a comment.", p: { "filename!": str("File name."), "content!": str("File content; base64 when binary is true."), binary: bool("Content is base64-encoded."), "channel ids": arr("Channels to share the file in."), title: str("Title."), "initial comment": str("Message posted with the file."), "thread ts": str("Share into this thread.") } },
          { v: "share", d: "Share an already uploaded file into another channel.", p: { ...channel } },
        ],
      },
      {
        n: "reminder",
        id: { "reminder id!": str("ID of the reminder.") },
        what: "Reminders are Slackbot nudges at a given time.",
        fields: { "text!": str("What to be reminded about."), "time!": str("When: Unix timestamp or natural language like 'in 15 minutes' or 'every Monday at 9am'."), "user id": str("Whom to remind (default: yourself).") },
        verbs: "lcd",
        verbNames: { c: "add" },
        custom: [{ v: "complete", d: "Mark a reminder as complete." }],
      },
      {
        n: "user group",
        id: { "usergroup id!": str("ID of the user group.") },
        what: "User groups are @-mentionable teams such as @oncall.",
        fields: { "name!": str("Group name."), handle: str("Mention handle without @."), description: str("Description."), channels: arr("Default channels for members.") },
        verbs: "lcu",
        custom: [
          { v: "list", o: "members", d: "List the user IDs in a user group." },
          { v: "update", o: "members", d: "Replace the members of a user group, e.g. rotate the @oncall handle.", p: { "user ids!": arr("The complete new member list.") } },
        ],
      },
      {
        n: "bookmark",
        where: "in a channel",
        parent: channel,
        id: { "bookmark id!": str("ID of the bookmark.") },
        what: "Bookmarks are links pinned to the top bar of a channel.",
        fields: { "title!": str("Bookmark title."), "link!": str("URL."), emoji: str("Emoji icon.") },
        verbs: "lcd",
        verbNames: { c: "add" },
      },
    ],
    tools: [
      ["send", "direct message", "Send a direct message to a user, opening the DM conversation if needed.", { "user id!": str("Recipient's user ID."), "text!": str("Message text (mrkdwn).") }],
      ["open", "conversation", "Open (or resume) a direct or group direct message with up to 8 users and return its channel ID.", { "user ids!": arr("Users to include.") }],
      ["get", "team info", "Get the workspace's name, domain, icon and enterprise information.", {}],
      ["list", "custom emoji", "List the workspace's custom emoji and their image URLs.", {}],
      ["list", "scheduled messages", "List messages scheduled to be posted later, with their channels and times.", { "channel id": str("Only this channel."), limit: int("Page size.") }],
      ["delete", "scheduled message", "Cancel a scheduled message before it is posted.", { "channel id!": str("Channel it was scheduled in."), "scheduled message id!": str("ID returned by scheduleMessage.") }],
      ["set", "do not disturb", "Snooze notifications (Do Not Disturb) for a number of minutes.", { "minutes!": int("How long to snooze.") }],
      ["end", "do not disturb", "End the current Do Not Disturb snooze.", {}],
      ["create", "canvas", "Create a canvas (a rich document) from Markdown, standalone or attached to a channel.", { title: str("Canvas title."), "markdown!": str("Content in Markdown."), "channel id": str("Attach as the channel's canvas.") }],
      ["list", "saved items", "List the messages and files the user saved for later.", { limit: int("Page size.") }],
    ],
  };
}

function calendar() {
  const cal = { "calendar id!": str("Calendar ID; 'primary' is the user's main calendar.") };
  return {
    where: "",
    paging: { "max results": int("Maximum entries per page (default 250)."), "page token": str("nextPageToken from the previous response.") },
    resources: [
      {
        n: "calendar",
        id: cal,
        what: "Calendars hold events; a user has a primary calendar and can own or subscribe to others.",
        fields: { "summary!": str("Calendar name."), description: str("Description."), "time zone": str("IANA time zone, e.g. America/New_York."), location: str("Geographic location.") },
        filters: { "min access role": en(["freeBusyReader", "reader", "writer", "owner"], "Only calendars with at least this access."), "show hidden": bool("Include calendars hidden from the list.") },
        verbs: "lgcud",
        notes: { d: "The primary calendar cannot be deleted; use clearCalendar instead." },
        custom: [{ v: "clear", d: "Delete every event from the primary calendar. Use with care." }],
      },
      {
        n: "event",
        where: "on a calendar",
        filterText: "time window and ordering",
        parent: cal,
        id: { "event id!": str("Event ID.") },
        what: "Events are meetings and appointments with a start, an end, guests and reminders.",
        fields: {
          "summary!": str("Event title."),
          "start!": str("Start as RFC 3339 date-time, or YYYY-MM-DD for all-day events."),
          "end!": str("End, same format as start."),
          description: str("Notes or agenda."),
          location: str("Place or address."),
          attendees: arr("Email addresses of guests to invite."),
          recurrence: arr("RRULE lines, e.g. RRULE:FREQ=WEEKLY;BYDAY=MO,WE."),
          "add video conference": bool("Attach a new video meeting link."),
          "reminder minutes": arr("Minutes before the start for popup reminders.", "integer"),
          "time zone": str("Time zone of start/end when they have no offset."),
        },
        ufields: {
          summary: str("New title."),
          start: str("New start."),
          end: str("New end."),
          description: str("New description."),
          location: str("New location."),
          attendees: arr("Complete new guest list."),
        },
        filters: {
          "time min": str("Lower bound (exclusive) for an event's end, RFC 3339."),
          "time max": str("Upper bound (exclusive) for an event's start, RFC 3339."),
          "single events": bool("Expand recurring events into instances."),
          "order by": en(["startTime", "updated"], "Sort order (startTime needs single events)."),
        },
        searchIn: "title, description, location and attendee names",
        sfilters: { "time min": str("Only events after this time."), "time max": str("Only events before this time.") },
        returns: "title, time, location, organizer, guests with their responses, conference link and recurrence",
        verbs: "lgcuds",
        notes: { c: "Guests receive email invitations when send updates is 'all'.", u: "Guests are notified according to send updates." },
        extra: { c: { "send updates": en(["all", "externalOnly", "none"], "Whom to email about the new event.") }, u: { "send updates": en(["all", "externalOnly", "none"], "Whom to notify.") }, d: { "send updates": en(["all", "externalOnly", "none"], "Whom to notify of the cancellation.") } },
        custom: [
          { v: "quick add", noId: true, d: "Create an event from a natural-language sentence such as 'Lunch with Ana tomorrow at 1pm at Café Luna'.", p: { "text!": str("The sentence describing the event.") } },
          { v: "move", d: "Move an event to another calendar, changing its organizer.", p: { "destination calendar id!": str("Calendar to move the event to.") } },
          { v: "respond to", d: "Accept, decline or tentatively accept an event invitation as the authenticated user.", p: { "response!": en(["accepted", "declined", "tentative"], "Your answer."), comment: str("Note for the organizer.") } },
          { v: "list", o: "instances", d: "List the individual occurrences of a recurring event within a time range.", p: { "time min": str("Start of the range."), "time max": str("End of the range.") } },
          { v: "add", o: "attendees", d: "Invite more guests to an existing event without changing the others.", p: { "emails!": arr("Email addresses to add."), optional: bool("Mark them as optional attendees.") } },
        ],
      },
      {
        n: "acl rule",
        label: "ACL rule",
        where: "on a calendar",
        parent: cal,
        id: { "rule id!": str("ACL rule ID, e.g. user:ana@example.com.") },
        what: "ACL rules share a calendar with users, groups or a whole domain.",
        fields: {
          "role!": en(["freeBusyReader", "reader", "writer", "owner"], "Access granted: see free/busy only, see details, edit, or manage."),
          "scope type!": en(["user", "group", "domain", "default"], "Who the rule applies to."),
          "scope value": str("Email address or domain (omit for default)."),
        },
        verbs: "lcd",
      },
    ],
    tools: [
      ["query", "free busy", "Return the busy time ranges of one or more calendars (people or rooms) in a time window, without event details.", { "time min!": str("Window start, RFC 3339."), "time max!": str("Window end, RFC 3339."), "calendar ids!": arr("Calendars or email addresses to check."), "time zone": str("Time zone of the response.") }],
      ["find", "meeting times", "Suggest time slots when all required attendees are free, within working hours, for a meeting of a given length.", { "attendees!": arr("Email addresses of required attendees."), "duration minutes!": int("Meeting length."), "window start": str("Earliest start (default now)."), "window end": str("Latest end (default in 7 days)."), "working hours only": bool("Only suggest slots within each attendee's working hours (default true)."), "max suggestions": int("How many slots to return (default 5).") }],
      ["set", "out of office", "Block time as out of office; optionally auto-decline invitations in that period with a message.", { "start!": str("Start, RFC 3339."), "end!": str("End, RFC 3339."), "auto decline": bool("Decline new and existing invitations in the period."), message: str("Decline message.") }],
      ["get", "settings", "Get the user's calendar settings: time zone, week start, default event length, working hours and locale.", {}],
      ["list", "colors", "List the color palette for calendars and events, with IDs usable in event colorId.", {}],
      ["list", "rooms", "List bookable meeting rooms and resources with capacity, building, floor and equipment.", { building: str("Only this building."), "min capacity": int("Seats needed."), features: arr("Required equipment, e.g. video, whiteboard.") }],
      ["find", "available rooms", "Find meeting rooms that are free for a whole time slot, optionally with a minimum capacity.", { "start!": str("Slot start, RFC 3339."), "end!": str("Slot end."), "min capacity": int("Seats needed."), building: str("Preferred building.") }],
      ["create", "focus time", "Block focus time on the primary calendar and optionally decline meetings that overlap it.", { "start!": str("Start."), "end!": str("End."), "auto decline": bool("Decline conflicting invitations."), title: str("Title (default Focus time).") }],
      ["set", "working location", "Set where you work on a day: home, an office or elsewhere.", { "date!": str("Day (YYYY-MM-DD)."), "type!": en(["home", "office", "custom"], "Location type."), label: str("Office or place name.") }],
      ["import", "ics", "Import events from an iCalendar (.ics) file into a calendar.", { "calendar id!": str("Target calendar."), "ics!": str("Contents of the .ics file.") }],
      ["subscribe", "to calendar", "Add another calendar (by ID or public .ics URL) to the user's calendar list.", { "calendar id": str("Calendar ID to add."), "ics url": str("Public iCalendar feed URL.") }],
    ],
  };
}

function stripe() {
  const money = { "amount!": int("Amount in the smallest currency unit, e.g. 1099 for $10.99."), "currency!": str("Three-letter ISO currency code, lowercase, e.g. usd.") };
  const meta = { metadata: obj("Up to 50 string key/value pairs of your own.") };
  const customer = str("ID of the customer (cus_...).");
  return {
    titles: true,
    paging: {
      limit: int("Number of objects to return, 1-100 (default 10).", { minimum: 1, maximum: 100 }),
      "starting after": str("Object ID to start after, for the next page."),
    },
    searchLimit: { limit: int("Maximum results (default 10)."), page: str("Page token from a previous search.") },
    resources: [
      {
        n: "customer",
        id: { "customer id!": customer },
        what: "Customers store contact details, payment methods and billing history for repeat charges and subscriptions.",
        fields: {
          email: str("Customer's email address."),
          name: str("Full name or business name."),
          phone: str("Phone number."),
          description: str("Internal description."),
          "payment method": str("PaymentMethod ID to attach and set as the default."),
          ...meta,
        },
        filters: { email: str("Exact email match (case-sensitive)."), "created after": int("Unix timestamp.") },
        searchIn: "email, name, phone and metadata (Stripe search syntax, e.g. email~'@acme.com')",
        returns: "email, name, default payment method, balance, currency and metadata",
        verbs: "lgcuds",
        notes: { d: "Active subscriptions of the customer are canceled immediately." },
      },
      {
        n: "payment intent",
        id: { "payment intent id!": str("PaymentIntent ID (pi_...).") },
        what: "A PaymentIntent tracks one payment from creation through authentication to success.",
        fields: {
          ...money,
          customer,
          "payment method": str("PaymentMethod to charge."),
          description: str("Description shown in the Dashboard."),
          "capture method": en(["automatic", "manual"], "manual authorizes now and captures later."),
          "receipt email": str("Email a receipt to this address on success."),
          ...meta,
        },
        ufields: { amount: int("New amount."), description: str("New description."), ...meta },
        filters: { customer: str("Only this customer's payments."), "created after": int("Unix timestamp.") },
        searchIn: "status, amount, customer and metadata",
        verbs: "lgcus",
        custom: [
          { v: "confirm", d: "Confirm a PaymentIntent to attempt the payment; may return a next action such as 3-D Secure authentication.", p: { "payment method": str("PaymentMethod to use."), "return url": str("Where to redirect after authentication.") } },
          { v: "capture", d: "Capture the funds of an authorized PaymentIntent (capture method manual), fully or partially.", p: { "amount to capture": int("Amount to capture; default the full authorized amount.") } },
          { v: "cancel", d: "Cancel a PaymentIntent that has not succeeded; an authorization hold is released.", p: { "cancellation reason": en(["duplicate", "fraudulent", "requested_by_customer", "abandoned"], "Why it was canceled.") } },
        ],
      },
      {
        n: "charge",
        id: { "charge id!": str("Charge ID (ch_...).") },
        what: "Charges are the individual card or bank debits created by payments.",
        filters: { customer: str("Only this customer's charges."), "payment intent": str("Only charges of this PaymentIntent.") },
        returns: "amount, status, failure code and message, payment method details, receipt URL and refunds",
        searchIn: "amount, status, customer, card fingerprint and metadata",
        verbs: "lgs",
      },
      {
        n: "refund",
        id: { "refund id!": str("Refund ID (re_...).") },
        what: "Refunds return all or part of a successful payment to the customer.",
        fields: {
          "payment intent": str("PaymentIntent to refund."),
          charge: str("Charge to refund (alternative to payment intent)."),
          amount: int("Amount to refund in the smallest unit; default the whole remaining amount."),
          reason: en(["duplicate", "fraudulent", "requested_by_customer"], "Reason for the refund."),
          ...meta,
        },
        filters: { charge: str("Only refunds of this charge."), "payment intent": str("Only refunds of this payment.") },
        verbs: "lgc",
        custom: [{ v: "cancel", d: "Cancel a refund that is still pending (e.g. waiting for customer bank details)." }],
      },
      {
        n: "subscription",
        id: { "subscription id!": str("Subscription ID (sub_...).") },
        what: "Subscriptions bill a customer on a recurring schedule for one or more prices.",
        fields: {
          "customer!": customer,
          "items!": arr("Prices to subscribe to, each {price, quantity}.", "object"),
          "trial period days": int("Free trial length."),
          coupon: str("Coupon to apply."),
          "default payment method": str("PaymentMethod used for invoices."),
          ...meta,
        },
        ufields: { items: arr("New items; prices can be swapped or quantities changed.", "object"), "proration behavior": en(["create_prorations", "none", "always_invoice"], "How to bill the change."), "cancel at period end": bool("Cancel when the current period ends."), ...meta },
        filters: { customer: str("Only this customer's subscriptions."), price: str("Only subscriptions with this price."), status: en(["active", "past_due", "unpaid", "canceled", "trialing", "all"], "Subscription status.") },
        searchIn: "status, customer and metadata",
        verbs: "lgcus",
        custom: [
          { v: "cancel", d: "Cancel a subscription immediately, or at the end of the billing period, optionally with a final prorated invoice.", p: { "at period end": bool("Keep it active until the period ends."), prorate: bool("Credit the unused time."), "invoice now": bool("Invoice pending usage and prorations now.") } },
          { v: "resume", d: "Resume a paused subscription, optionally billing immediately.", p: { "billing cycle anchor": en(["now", "unchanged"], "Whether to reset the billing cycle.") } },
        ],
      },
      {
        n: "invoice",
        id: { "invoice id!": str("Invoice ID (in_...).") },
        what: "Invoices are itemized statements of what a customer owes, paid automatically or by email.",
        fields: {
          "customer!": customer,
          "collection method": en(["charge_automatically", "send_invoice"], "Charge the default payment method, or email the invoice."),
          "days until due": int("For send_invoice: days until the invoice is due."),
          description: str("Memo shown on the invoice."),
          "auto advance": bool("Let Stripe finalize and collect the invoice automatically."),
          ...meta,
        },
        filters: { customer: str("Only this customer's invoices."), status: en(["draft", "open", "paid", "uncollectible", "void"], "Invoice status."), subscription: str("Only invoices of this subscription.") },
        searchIn: "number, customer, status, total and metadata",
        verbs: "lgcuds",
        notes: { d: "Only draft invoices can be deleted; void finalized ones instead." },
        custom: [
          { v: "finalize", d: "Finalize a draft invoice so it can be paid; its number is assigned and line items are frozen." },
          { v: "pay", d: "Attempt to collect payment on an open invoice now, outside the automatic retry schedule.", p: { "payment method": str("PaymentMethod to use."), "paid out of band": bool("Mark as paid outside Stripe (e.g. check).") } },
          { v: "void", d: "Void a finalized invoice that should not be paid; it stays on record." },
          { v: "send", d: "Email a finalized invoice to the customer with a link to pay it online." },
          { v: "get upcoming", noId: true, d: "Preview the next invoice for a customer or subscription, including pending prorations, without creating it.", p: { "customer!": customer, subscription: str("Subscription to preview.") } },
        ],
      },
      {
        n: "product",
        id: { "product id!": str("Product ID (prod_...).") },
        what: "Products describe the goods or services you sell; prices attach to them.",
        fields: { "name!": str("Product name shown to customers."), description: str("Description."), active: bool("Available for purchase."), images: arr("Up to 8 image URLs."), ...meta },
        filters: { active: bool("Only active or inactive products.") },
        searchIn: "name, description, active flag and metadata",
        verbs: "lgcuds",
      },
      {
        n: "price",
        id: { "price id!": str("Price ID (price_...).") },
        what: "Prices set how much and how often a product costs, one-time or recurring.",
        fields: {
          "product!": str("Product the price belongs to."),
          "unit amount!": int("Price in the smallest currency unit."),
          "currency!": str("Currency code."),
          "recurring interval": en(["day", "week", "month", "year"], "Billing interval for recurring prices; omit for one-time."),
          nickname: str("Internal name."),
          "lookup key": str("Stable key to fetch the price by."),
        },
        ufields: { nickname: str("New nickname."), active: bool("Archive (false) or reactivate the price."), "lookup key": str("New lookup key.") },
        filters: { product: str("Only prices of this product."), type: en(["one_time", "recurring"], "Price type."), active: bool("Only active prices.") },
        verbs: "lgcu",
        notes: { u: "The amount of a price cannot be changed; create a new price instead." },
      },
      {
        n: "coupon",
        id: { "coupon id!": str("Coupon ID.") },
        what: "Coupons give a percentage or fixed-amount discount on invoices and subscriptions.",
        fields: {
          "percent off": num("Percentage discount (1-100)."),
          "amount off": int("Fixed discount in the smallest unit."),
          currency: str("Currency of amount off."),
          "duration!": en(["once", "repeating", "forever"], "How long the discount applies."),
          "duration in months": int("For repeating: number of months."),
          name: str("Name shown to customers."),
          "max redemptions": int("How many times it can be redeemed in total."),
        },
        verbs: "lgcd",
        notes: { d: "Customers who already have the coupon keep their discount." },
      },
      {
        n: "payout",
        id: { "payout id!": str("Payout ID (po_...).") },
        what: "Payouts move your Stripe balance to your bank account.",
        fields: { ...money, description: str("Statement descriptor."), method: en(["standard", "instant"], "Instant payouts arrive in minutes for a fee.") },
        filters: { status: en(["pending", "paid", "failed", "canceled"], "Payout status."), "arrival after": int("Unix timestamp.") },
        verbs: "lgc",
        custom: [{ v: "cancel", d: "Cancel a pending payout; the funds return to the available balance." }],
      },
      {
        n: "dispute",
        id: { "dispute id!": str("Dispute ID (dp_...).") },
        what: "Disputes (chargebacks) happen when a cardholder questions a payment with their bank.",
        ufields: { evidence: obj("Evidence fields such as customer_communication, receipt, shipping_tracking_number."), submit: bool("Submit the evidence now (otherwise it is saved as a draft).") },
        filters: { charge: str("Only disputes of this charge."), "payment intent": str("Only disputes of this payment.") },
        returns: "amount, reason, status, evidence due date and submitted evidence",
        verbs: "lgu",
        desc: { u: "Add or update the evidence for a dispute, and optionally submit it to the bank." },
        custom: [{ v: "close", d: "Accept a dispute (concede it): the disputed amount is lost and the dispute is closed." }],
      },
      {
        n: "payment method",
        id: { "payment method id!": str("PaymentMethod ID (pm_...).") },
        what: "PaymentMethods are saved cards, bank accounts and wallets.",
        filters: { "customer!": customer, type: en(["card", "us_bank_account", "sepa_debit", "link"], "Payment method type.") },
        returns: "type, card brand, last four digits, expiry and billing details",
        verbs: "lg",
        custom: [
          { v: "attach", d: "Attach a PaymentMethod to a customer so it can be reused.", p: { "customer!": customer } },
          { v: "detach", d: "Detach a PaymentMethod from its customer; it can no longer be charged." },
        ],
      },
      {
        n: "promotion code",
        id: { "promotion code id!": str("Promotion code ID (promo_...).") },
        what: "Promotion codes are customer-facing codes that redeem a coupon, e.g. SUMMER20.",
        fields: { "coupon!": str("Coupon the code applies."), code: str("The code customers type (default: generated)."), "max redemptions": int("Redemption limit."), "expires at": int("Unix time it expires."), "first time transaction": bool("Only for customers with no prior payments.") },
        ufields: { active: bool("Deactivate (false) or reactivate the code."), metadata: obj("Your own key/value pairs.") },
        filters: { code: str("Exact code."), active: bool("Only active codes.") },
        verbs: "lgcu",
      },
      {
        n: "credit note",
        id: { "credit note id!": str("Credit note ID (cn_...).") },
        what: "Credit notes reduce the amount owed on a finalized invoice, or refund part of a paid one.",
        fields: {
          "invoice!": str("Invoice to credit."),
          amount: int("Amount to credit in the smallest unit (default: the lines given)."),
          reason: en(["duplicate", "fraudulent", "order_change", "product_unsatisfactory"], "Why the credit is issued."),
          memo: str("Note printed on the credit note."),
          "refund amount": int("Part of the credit to refund to the payment method."),
        },
        filters: { invoice: str("Only credit notes of this invoice."), customer: str("Only this customer's credit notes.") },
        verbs: "lgc",
        custom: [{ v: "void", d: "Void a credit note, reversing its effect on the invoice." }],
      },
      {
        n: "quote",
        id: { "quote id!": str("Quote ID (qt_...).") },
        what: "Quotes are priced offers a customer accepts to start a subscription or get an invoice.",
        fields: {
          "customer!": customer,
          "line items!": arr("Items, each {price, quantity}.", "object"),
          "expires at": int("Unix time the offer expires."),
          description: str("Header text shown on the quote."),
          "collection method": en(["charge_automatically", "send_invoice"], "How the resulting invoice is paid."),
        },
        filters: { customer: str("Only this customer's quotes."), status: en(["draft", "open", "accepted", "canceled"], "Quote status.") },
        verbs: "lgc",
        custom: [
          { v: "finalize", d: "Finalize a draft quote so it can be sent to the customer and accepted." },
          { v: "accept", d: "Accept a finalized quote on the customer's behalf, creating its invoice or subscription." },
          { v: "cancel", d: "Cancel a quote that is no longer valid." },
          { v: "download", o: "pdf", d: "Download the PDF of a finalized quote to send it yourself." },
        ],
      },
      {
        n: "checkout session",
        id: { "session id!": str("Checkout Session ID (cs_...).") },
        what: "Checkout Sessions are customers' visits to a hosted payment page.",
        filters: { customer: str("Only this customer's sessions."), "payment intent": str("Only the session of this payment."), status: en(["open", "complete", "expired"], "Session status.") },
        returns: "status, payment status, amounts, customer details and the resulting payment or subscription",
        verbs: "lg",
        custom: [
          { v: "expire", d: "Expire an open Checkout Session so its page can no longer be used to pay." },
          { v: "list", o: "line items", d: "List the items a customer bought in a Checkout Session, with quantities and amounts." },
        ],
      },
      {
        n: "payment link",
        id: { "payment link id!": str("Payment link ID (plink_...).") },
        ufields: { active: bool("Deactivate (false) so the link stops accepting payments."), "line items": arr("New items, each {id, quantity}.", "object"), "after completion url": str("New redirect after payment.") },
        filters: { active: bool("Only active links.") },
        returns: "URL, line items, whether it is active and what happens after payment",
        verbs: "lgu",
        desc: { l: "List the payment links you created, with their URLs and whether they are active." },
      },
      {
        n: "webhook endpoint",
        id: { "endpoint id!": str("Webhook endpoint ID (we_...).") },
        what: "Webhook endpoints receive event notifications such as payment_intent.succeeded.",
        fields: {
          "url!": str("HTTPS URL that receives the events."),
          "enabled events!": arr("Event types to send, e.g. invoice.paid, or * for all."),
          description: str("What the endpoint is for."),
        },
        ufields: { url: str("New URL."), "enabled events": arr("New event types."), disabled: bool("Pause deliveries.") },
        verbs: "lgcud",
        notes: { c: "The response includes the signing secret used to verify deliveries; it is shown only once." },
      },
    ],
    tools: [
      ["get", "balance", "Get the account balance: available and pending amounts per currency.", {}],
      ["list", "balance transactions", "List the transactions that changed the balance (charges, refunds, fees, payouts) with their net amounts and fees.", { type: str("Only this type, e.g. charge, refund, payout, stripe_fee."), payout: str("Only transactions included in this payout."), limit: int("Page size.") }],
      ["create", "payment link", "Create a shareable payment link (a hosted checkout page URL) for one or more prices.", { "line items!": arr("Items, each {price, quantity}.", "object"), "after completion url": str("Redirect after payment."), "allow promotion codes": bool("Let customers enter promotion codes.") }],
      ["create", "checkout session", "Create a Checkout Session and return its hosted page URL for a one-time payment, a subscription signup or saving a card.", { "mode!": en(["payment", "subscription", "setup"], "What the session does."), "line items": arr("Items, each {price, quantity}.", "object"), "success url!": str("Redirect after success."), "cancel url": str("Redirect if the customer goes back."), customer: str("Existing customer to attach.") }],
      ["create", "invoice item", "Add a line item to a customer's next or draft invoice, e.g. a one-off fee.", { "customer!": customer, "amount!": int("Amount in the smallest unit."), "currency!": str("Currency code."), description: str("Line description."), invoice: str("Draft invoice to add it to (default: the next invoice).") }],
      ["list", "events", "List API events (e.g. payment_intent.succeeded, invoice.payment_failed) from the last 30 days, as delivered to webhooks.", { type: str("Event type, wildcards allowed: invoice.*"), "created after": int("Unix timestamp."), limit: int("Page size.") }],
      ["create", "setup intent", "Create a SetupIntent to save a customer's card or bank account for future payments without charging it now.", { customer: str("Customer to save it for."), "payment method types": arr("e.g. card, sepa_debit."), usage: en(["off_session", "on_session"], "How it will be used later.") }],
      ["list", "tax rates", "List the tax rates defined on the account (e.g. VAT 20%), with jurisdictions.", { active: bool("Only active rates."), inclusive: bool("Only inclusive or exclusive rates.") }],
      ["create", "tax rate", "Create a tax rate (e.g. 20% VAT, inclusive or exclusive) to apply to invoices and subscriptions.", { "display name!": str("Name shown on invoices, e.g. VAT."), "percentage!": num("Rate in percent."), "inclusive!": bool("Whether prices already include the tax."), jurisdiction: str("Jurisdiction shown to customers."), country: str("Two-letter country code.") }],
      ["update", "tax rate", "Rename, describe or archive a tax rate; the percentage cannot change.", { "tax rate id!": str("Tax rate ID (txr_...)."), "display name": str("New name."), active: bool("Archive (false) or reactivate.") }],
      ["get", "setup intent", "Get a SetupIntent's status and the PaymentMethod it saved.", { "setup intent id!": str("SetupIntent ID (seti_...).") }],
      ["confirm", "setup intent", "Confirm a SetupIntent with a payment method; may require customer authentication.", { "setup intent id!": str("SetupIntent ID."), "payment method": str("PaymentMethod to save."), "return url": str("Redirect after authentication.") }],
      ["cancel", "setup intent", "Cancel a SetupIntent that is no longer needed.", { "setup intent id!": str("SetupIntent ID.") }],
      ["create", "customer balance transaction", "Credit or debit a customer's balance, which is applied to their next invoices (e.g. a goodwill credit).", { "customer!": customer, "amount!": int("Negative to credit the customer, positive to debit."), "currency!": str("Currency code."), description: str("Reason shown on invoices.") }],
      ["create", "meter event", "Report usage for usage-based billing, e.g. API calls or tokens consumed by a customer.", { "event name!": str("Meter event name, e.g. api_requests."), "customer!": customer, "value!": num("Usage quantity."), timestamp: int("When the usage happened (Unix time, default now).") }],
    ],
  };
}

function sheets() {
  const ss = { "spreadsheet id!": str("Spreadsheet ID (the part of the URL after /d/).") };
  const range = (what = "Range in A1 notation, e.g. 'Sheet1!A1:D20'.") => ({ "range!": str(what) });
  const sheetId = { "sheet id!": int("Numeric ID of the sheet (tab), not its title.") };
  const dim = { "sheet id!": int("Numeric ID of the sheet."), "start index!": int("Zero-based index of the first row or column."), "count!": int("How many.") };
  return {
    tools: [
      ["create", "spreadsheet", "Create a new spreadsheet with a title and optional tab names; returns its ID and URL.", { "title!": str("Spreadsheet title."), "sheet titles": arr("Names of the tabs to create."), locale: str("Locale for formatting, e.g. en_US.") }],
      ["get", "spreadsheet", "Get a spreadsheet's metadata: title, tabs with their IDs and sizes, named ranges; optionally the cell data.", { ...ss, "include grid data": bool("Also return cell values and formats (can be large)."), ranges: arr("Limit grid data to these ranges.") }],
      ["list", "spreadsheets", "List the spreadsheets the user can access, most recently modified first, optionally filtered by title.", { "title contains": str("Only spreadsheets whose title contains this."), limit: int("Maximum results.") }],
      ["get", "values", "Read the cell values of a range as rows of values.", { ...ss, ...range(), "value render option": en(["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"], "Formatted text, raw values, or the formulas."), "major dimension": en(["ROWS", "COLUMNS"], "Return rows (default) or columns.") }],
      ["batch get", "values", "Read several ranges in one call.", { ...ss, "ranges!": arr("Ranges in A1 notation."), "value render option": en(["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"], "Render option.") }],
      ["update", "values", "Write values into a range, overwriting what is there. With USER_ENTERED, strings like '=SUM(A1:A9)' or '3/14' are parsed like typed input.", { ...ss, ...range("Top-left cell or range to write, e.g. 'Data!B2'."), "values!": arr("Rows, each an array of cell values.", "array"), "value input option": en(["RAW", "USER_ENTERED"], "How input is interpreted (default USER_ENTERED).") }],
      ["batch update", "values", "Write values into several ranges in one request.", { ...ss, "data!": arr("Entries, each {range, values}.", "object"), "value input option": en(["RAW", "USER_ENTERED"], "Input interpretation.") }],
      ["append", "rows", "Append rows after the last row of data in a table-like range, e.g. add a new record to a log sheet.", { ...ss, ...range("Range that identifies the table, e.g. 'Orders!A:F'."), "values!": arr("Rows to append.", "array"), "insert data option": en(["OVERWRITE", "INSERT_ROWS"], "Overwrite empty cells below or insert new rows.") }],
      ["clear", "values", "Clear the values of a range, keeping formatting.", { ...ss, ...range() }],
      ["add", "sheet", "Add a new tab to a spreadsheet.", { ...ss, "title!": str("Tab title."), index: int("Position among the tabs."), "row count": int("Number of rows (default 1000)."), "column count": int("Number of columns (default 26).") }],
      ["delete", "sheet", "Delete a tab and all its data from a spreadsheet.", { ...ss, ...sheetId }],
      ["rename", "sheet", "Rename a tab (sheet) of a spreadsheet; formulas referring to it are updated.", { ...ss, ...sheetId, "title!": str("New title.") }],
      ["duplicate", "sheet", "Duplicate a tab inside the same spreadsheet.", { ...ss, ...sheetId, "new title": str("Title of the copy."), "insert index": int("Position of the copy.") }],
      ["copy", "sheet to spreadsheet", "Copy a tab into another spreadsheet.", { ...ss, ...sheetId, "destination spreadsheet id!": str("Spreadsheet to copy into.") }],
      ["format", "cells", "Apply formatting to a range: bold/italic, font size, text and background colors, number format, alignment and wrapping.", { ...ss, ...range(), bold: bool("Bold text."), italic: bool("Italic text."), "font size": int("Font size in points."), "background color": str("Hex color, e.g. #FFF2CC."), "text color": str("Hex color."), "number format": str("Pattern such as '0.00%', '$#,##0.00' or 'yyyy-mm-dd'."), "horizontal alignment": en(["LEFT", "CENTER", "RIGHT"], "Alignment."), wrap: bool("Wrap text.") }],
      ["merge", "cells", "Merge the cells of a range into one.", { ...ss, ...range(), "merge type": en(["MERGE_ALL", "MERGE_COLUMNS", "MERGE_ROWS"], "How to merge.") }],
      ["unmerge", "cells", "Split merged cells in a range back into individual cells.", { ...ss, ...range() }],
      ["resize", "columns", "Set the width of columns in pixels, or auto-fit them to their content.", { ...ss, ...dim, "pixel size": int("Width in pixels; omit to auto-fit.") }],
      ["freeze", "rows and columns", "Freeze header rows and/or leading columns so they stay visible while scrolling.", { ...ss, ...sheetId, "frozen rows": int("Number of rows to freeze."), "frozen columns": int("Number of columns to freeze.") }],
      ["insert", "rows", "Insert empty rows at a position, shifting the rows below down.", { ...ss, ...dim }],
      ["insert", "columns", "Insert empty columns at a position, shifting columns to the right.", { ...ss, ...dim }],
      ["delete", "rows", "Delete rows from a tab, shifting the rows below up.", { ...ss, ...dim }],
      ["delete", "columns", "Delete columns from a tab.", { ...ss, ...dim }],
      ["sort", "range", "Sort the rows of a range by one or more columns.", { ...ss, ...range(), "sort specs!": arr("Sort keys, each {column index, order: ASCENDING|DESCENDING}.", "object"), "has header": bool("Keep the first row in place.") }],
      ["find", "and replace", "Find text (or a regex) and replace it in a range, a tab or the whole spreadsheet; returns the number of replacements.", { ...ss, "find!": str("Text or pattern to find."), "replacement!": str("Replacement text."), "match case": bool("Case-sensitive."), regex: bool("Treat find as a regular expression."), "sheet id": int("Limit to one tab."), "all sheets": bool("Search every tab.") }],
      ["set", "basic filter", "Turn on the filter on a range with optional per-column criteria (hide values, condition), like Data > Create a filter.", { ...ss, ...range(), criteria: obj("Per-column criteria keyed by column index.") }],
      ["clear", "basic filter", "Remove the basic filter from a tab, showing all rows.", { ...ss, ...sheetId }],
      ["create", "filter view", "Create a named filter view that others can open without changing what everyone sees.", { ...ss, ...range(), "title!": str("Filter view name."), criteria: obj("Per-column criteria."), "sort specs": arr("Sort keys.", "object") }],
      ["add", "conditional format", "Add a conditional formatting rule to a range, e.g. color cells red when the value is below 0 or a color scale.", { ...ss, ...range(), "condition type!": en(["NUMBER_LESS", "NUMBER_GREATER", "TEXT_CONTAINS", "CUSTOM_FORMULA", "COLOR_SCALE"], "Kind of rule."), values: arr("Values or the formula for the condition."), "background color": str("Hex color to apply when the rule matches.") }],
      ["set", "data validation", "Restrict what can be entered in a range: a dropdown list of values, numbers in a range, dates or a checkbox.", { ...ss, ...range(), "condition type!": en(["ONE_OF_LIST", "ONE_OF_RANGE", "NUMBER_BETWEEN", "DATE_IS_VALID", "BOOLEAN"], "Validation type."), values: arr("List items, source range or bounds."), strict: bool("Reject invalid input instead of warning."), "show dropdown": bool("Show a dropdown for list rules.") }],
      ["add", "chart", "Insert a chart built from a data range (column, bar, line, pie, scatter) anchored at a cell.", { ...ss, "source range!": str("Data range including headers."), "chart type!": en(["COLUMN", "BAR", "LINE", "PIE", "SCATTER", "AREA"], "Chart type."), title: str("Chart title."), "anchor cell": str("Top-left cell for the chart, e.g. 'Summary!H2'.") }],
      ["update", "chart", "Change a chart's type, title or source range.", { ...ss, "chart id!": int("Chart ID."), "chart type": en(["COLUMN", "BAR", "LINE", "PIE", "SCATTER", "AREA"], "New type."), title: str("New title."), "source range": str("New data range.") }],
      ["delete", "chart", "Remove a chart from a spreadsheet.", { ...ss, "chart id!": int("Chart ID.") }],
      ["create", "named range", "Give a range a name that formulas can refer to, e.g. TaxRate.", { ...ss, ...range(), "name!": str("Name (letters, digits, underscores).") }],
      ["delete", "named range", "Delete a named range (cells are unchanged).", { ...ss, "named range id!": str("ID of the named range.") }],
      ["protect", "range", "Protect a range or tab so only chosen editors can change it, or warn before editing.", { ...ss, ...range(), editors: arr("Emails of users allowed to edit."), "warning only": bool("Only show a warning instead of blocking."), description: str("Why it is protected.") }],
      ["add", "pivot table", "Create a pivot table summarizing a source range (rows, columns, values with SUM/COUNT/AVERAGE) at an anchor cell.", { ...ss, "source range!": str("Data range with headers."), "anchor cell!": str("Where to place the pivot table."), rows: arr("Column indexes to group rows by.", "integer"), "values!": arr("Values, each {column index, function}.", "object") }],
      ["import", "csv", "Paste CSV text into a tab starting at a cell, splitting it into cells.", { ...ss, "csv!": str("CSV text."), "start cell": str("Top-left cell (default A1 of the first tab)."), delimiter: str("Field separator (default comma).") }],
      ["hide", "rows", "Hide rows of a tab without deleting them.", { ...ss, ...dim }],
      ["group", "rows", "Group rows into a collapsible outline section.", { ...ss, ...dim, collapsed: bool("Collapse the group.") }],
      ["set", "sheet tab color", "Color the tab of a sheet.", { ...ss, ...sheetId, "color!": str("Hex color.") }],
    ],
  };
}

function maps() {
  const latlng = { "latitude!": num("Latitude in decimal degrees."), "longitude!": num("Longitude in decimal degrees.") };
  const mode = en(["driving", "walking", "bicycling", "transit"], "Travel mode (default driving).");
  return {
    tools: [
      ["geocode", "address", "Convert a street address or place name into latitude/longitude coordinates and a normalized address.", { "address!": str("Address or place, e.g. '1600 Amphitheatre Pkwy, Mountain View'."), region: str("Region bias as a ccTLD, e.g. 'de'."), language: str("Language of the results.") }],
      ["reverse geocode", "", "Turn coordinates into the nearest human-readable address and its components (street, city, postal code, country).", { ...latlng, "result types": arr("Limit to types such as street_address or locality."), language: str("Language of the results.") }],
      ["get", "directions", "Get a route between an origin and a destination, with distance, duration and turn-by-turn steps; supports waypoints and avoiding tolls or highways.", { "origin!": str("Address, place ID or 'lat,lng'."), "destination!": str("Address, place ID or 'lat,lng'."), mode, waypoints: arr("Stops along the way."), avoid: arr("Any of tolls, highways, ferries."), "departure time": str("Departure time for traffic-aware durations (ISO 8601 or 'now')."), alternatives: bool("Return alternative routes.") }],
      ["get", "distance matrix", "Compute travel distances and times between every origin and every destination, e.g. which store is closest by car.", { "origins!": arr("Origin addresses or coordinates."), "destinations!": arr("Destination addresses or coordinates."), mode, units: en(["metric", "imperial"], "Units for distances.") }],
      ["search", "places", "Search for places (businesses, landmarks, addresses) with a text query like 'vegan restaurants in Lisbon'.", { "query!": str("What to look for."), "location bias": str("'lat,lng' to prefer results near."), radius: int("Bias radius in meters."), "open now": bool("Only places open now."), "min rating": num("Minimum average rating (1-5)."), "price levels": arr("Allowed price levels 1-4.", "integer") }],
      ["search", "nearby", "Find places of given types within a radius of a point, e.g. pharmacies within 500 m.", { ...latlng, "radius!": int("Search radius in meters (max 50000)."), types: arr("Place types, e.g. pharmacy, cafe, gas_station."), "rank by": en(["popularity", "distance"], "Ordering of the results."), "max results": int("Maximum places (default 20).") }],
      ["get", "place details", "Get details of a place from its place ID: address, phone, website, opening hours, rating, price level and coordinates.", { "place id!": str("Place ID from a search."), fields: arr("Fields to return (default: a basic set)."), language: str("Language.") }],
      ["get", "place reviews", "Get the most relevant user reviews of a place with ratings and dates.", { "place id!": str("Place ID."), sort: en(["most_relevant", "newest"], "Review ordering.") }],
      ["autocomplete", "places", "Return place predictions for partially typed input, for search-as-you-type address boxes.", { "input!": str("The text typed so far."), "session token": str("Token grouping the keystrokes of one search for billing."), "location bias": str("'lat,lng' to prefer nearby results."), types: arr("Restrict to types such as address or establishment.") }],
      ["get", "place photo", "Fetch a photo of a place as an image, by its photo reference.", { "photo reference!": str("Reference from place details."), "max width": int("Maximum width in pixels.") }],
      ["get", "elevation", "Get the elevation above sea level for one or more points.", { "locations!": arr("Points as 'lat,lng'.") }],
      ["get", "timezone", "Get the time zone ID, name and UTC/DST offsets at a location and time.", { ...latlng, timestamp: int("Unix time to evaluate DST at (default now).") }],
      ["snap", "to roads", "Snap a series of GPS points to the most likely roads traveled, optionally filling in points along the road.", { "path!": arr("GPS points as 'lat,lng', in order."), interpolate: bool("Add points so the path follows the road geometry.") }],
      ["get", "speed limits", "Get posted speed limits for road segments along a path or for place IDs.", { path: arr("Points as 'lat,lng'."), "place ids": arr("Road segment place IDs."), units: en(["KPH", "MPH"], "Units.") }],
      ["get", "static map", "Render a static map image (PNG) centered on a location with optional markers and a path.", { "center!": str("Address or 'lat,lng'."), zoom: int("Zoom level 0-21."), size: str("Width x height in pixels, e.g. 640x400."), markers: arr("Marker specs, e.g. 'color:red|48.85,2.35'."), "map type": en(["roadmap", "satellite", "terrain", "hybrid"], "Map style.") }],
      ["compute", "isochrone", "Compute the area reachable from a point within a travel time, returned as a GeoJSON polygon.", { "origin!": str("Address or 'lat,lng'."), "minutes!": int("Travel time budget."), mode }],
      ["optimize", "route", "Find the best order to visit a set of stops (traveling salesman), returning the ordered stops and total time.", { "stops!": arr("Addresses or 'lat,lng' to visit."), start: str("Starting point."), "return to start": bool("End where you started."), mode }],
      ["validate", "address", "Validate and standardize a postal address, flagging missing or unconfirmed components.", { "address lines!": arr("Address lines as entered."), "region code": str("Country code, e.g. US.") }],
      ["geolocate", "ip address", "Estimate the location (city, region, country, coordinates) of an IP address.", { "ip!": str("IPv4 or IPv6 address.") }],
      ["get", "traffic incidents", "List traffic incidents (accidents, closures, roadworks) inside a bounding box.", { "bounding box!": str("'south,west,north,east' in degrees."), severity: en(["minor", "moderate", "major"], "Minimum severity.") }],
      ["search", "along route", "Find places of a type along a route, e.g. gas stations or rest stops between two cities, with the detour each adds.", { "origin!": str("Route start."), "destination!": str("Route end."), "query!": str("What to find, e.g. 'coffee'."), "max detour minutes": int("Maximum added travel time.") }],
      ["find", "ev chargers", "Find electric vehicle charging stations near a point with connector types, power and availability.", { "latitude!": num("Latitude."), "longitude!": num("Longitude."), radius: int("Radius in meters."), connectors: arr("Connector types, e.g. CCS, CHAdeMO, Type2."), "min power kw": int("Minimum charging power.") }],
      ["get", "transit departures", "Get upcoming public transport departures from a stop or station.", { "stop!": str("Stop name or ID."), "max departures": int("Number of departures."), modes: arr("bus, subway, train, tram, ferry.") }],
      ["get", "route tolls", "Estimate toll costs along a driving route.", { "origin!": str("Route start."), "destination!": str("Route end."), "vehicle type": en(["car", "motorcycle", "truck"], "Vehicle class."), "toll passes": arr("Toll passes the driver has.") }],
    ],
  };
}

function ci() {
  const project = { "project!": str("Project path or numeric ID, e.g. acme/web.") };
  return {
    where: "in a project",
    scope: project,
    paging: { "per page": int("Items per page (default 20, max 100)."), page: int("Page number, starting at 1.") },
    resources: [
      {
        n: "pipeline",
        id: { "pipeline id!": int("Pipeline ID.") },
        what: "Pipelines are the runs of a project's CI configuration for a commit.",
        filters: {
          ref: str("Only pipelines for this branch or tag."),
          status: en(["created", "pending", "running", "success", "failed", "canceled", "skipped", "manual"], "Pipeline status."),
          source: en(["push", "schedule", "merge_request_event", "web", "api", "trigger"], "What started the pipeline."),
          username: str("User who triggered it."),
          "updated after": str("ISO 8601 time."),
        },
        returns: "status, ref, commit SHA, duration, coverage and the user who triggered it",
        verbs: "lgd",
        notes: { d: "Its jobs, logs and artifacts are removed too." },
        custom: [
          { v: "trigger", noId: true, d: "Start a new pipeline for a branch or tag, optionally with CI/CD variables.", p: { "ref!": str("Branch or tag to run."), variables: obj("Variables for this run, as key to value.") } },
          { v: "cancel", d: "Cancel a running pipeline and all its pending and running jobs." },
          { v: "retry", d: "Retry the failed and canceled jobs of a pipeline." },
          { v: "get latest", noId: true, d: "Get the most recent pipeline for a branch (default: the default branch), e.g. to check whether main is green.", p: { ref: str("Branch or tag.") } },
        ],
      },
      {
        n: "job",
        id: { "job id!": int("Job ID.") },
        what: "Jobs are the individual build, test and deploy steps of a pipeline.",
        filters: { "pipeline id": int("Only jobs of this pipeline."), scope: arr("Statuses to include, e.g. failed, running.") },
        returns: "name, stage, status, runner, duration, failure reason and artifacts",
        verbs: "lg",
        custom: [
          { v: "get", o: "log", d: "Get the console output (trace) of a job, e.g. to see why a build failed.", p: { "tail lines": int("Only the last N lines.") } },
          { v: "retry", d: "Run a job again; a new job is created." },
          { v: "cancel", d: "Cancel a pending or running job." },
          { v: "play", d: "Start a manual job (e.g. a deploy-to-production step waiting for a click).", p: { variables: obj("Variables for this run.") } },
        ],
      },
      {
        n: "pipeline schedule",
        id: { "schedule id!": int("Schedule ID.") },
        what: "Schedules run pipelines periodically, like a nightly build.",
        fields: {
          "description!": str("What the schedule is for."),
          "ref!": str("Branch or tag to run."),
          "cron!": str("Cron expression, e.g. '0 2 * * *'."),
          "cron timezone": str("Time zone, e.g. UTC or Europe/Berlin."),
          active: bool("Whether the schedule is enabled."),
        },
        verbs: "lgcud",
        custom: [{ v: "run", d: "Run a pipeline schedule immediately, without waiting for its next time." }],
      },
      {
        n: "variable",
        id: { "key!": str("Variable name.") },
        what: "CI/CD variables inject settings and secrets into jobs as environment variables.",
        fields: {
          "key!": str("Variable name, e.g. AWS_REGION."),
          "value!": str("Value."),
          protected: bool("Only expose to protected branches and tags."),
          masked: bool("Hide the value in job logs."),
          "environment scope": str("Environments it applies to (default *)."),
        },
        ufields: { value: str("New value."), protected: bool("Protected flag."), masked: bool("Masked flag."), "environment scope": str("Environment scope.") },
        verbs: "lgcud",
      },
      {
        n: "runner",
        id: { "runner id!": int("Runner ID.") },
        what: "Runners are the agents that execute jobs.",
        filters: { status: en(["online", "offline", "stale", "never_contacted"], "Runner status."), type: en(["instance_type", "group_type", "project_type"], "Runner scope."), "tag list": arr("Only runners with all these tags.") },
        returns: "description, status, tags, platform, version and the jobs it ran recently",
        verbs: "lgd",
        custom: [
          { v: "pause", d: "Pause a runner so it stops picking up new jobs." },
          { v: "resume", d: "Let a paused runner pick up jobs again." },
        ],
      },
      {
        n: "environment",
        id: { "environment id!": int("Environment ID.") },
        what: "Environments (staging, production...) track what is deployed where.",
        fields: { "name!": str("Environment name."), "external url": str("URL of the deployed app."), tier: en(["production", "staging", "testing", "development", "other"], "Tier.") },
        verbs: "lgcd",
        custom: [{ v: "stop", d: "Stop an environment, running its on_stop job (e.g. tearing down a review app)." }],
      },
      {
        n: "deployment",
        returns: "environment, status, deployed ref and commit, the job that ran it and who triggered it",
        id: { "deployment id!": int("Deployment ID.") },
        what: "Deployments record which commit was deployed to which environment and when.",
        filters: { environment: str("Only deployments to this environment."), status: en(["created", "running", "success", "failed", "canceled", "blocked"], "Deployment status.") },
        verbs: "lg",
        custom: [{ v: "approve", d: "Approve or reject a deployment waiting for approval in a protected environment.", p: { "status!": en(["approved", "rejected"], "Decision."), comment: str("Reason.") } }],
      },
      {
        n: "trigger token",
        id: { "token id!": int("ID of the trigger token.") },
        what: "Trigger tokens let other systems start pipelines through the API.",
        fields: { "description!": str("What the token is used by.") },
        verbs: "lcd",
      },
    ],
    tools: [
      ["list", "artifacts", "List the artifacts produced by the jobs of a pipeline, with sizes and expiry dates.", { ...project, "pipeline id!": int("Pipeline ID.") }],
      ["download", "artifact", "Download a single file from a job's artifacts archive, e.g. a test report or coverage file.", { ...project, "job id!": int("Job ID."), "artifact path!": str("Path inside the artifacts archive, e.g. reports/junit.xml.") }],
      ["delete", "artifacts", "Delete the artifacts of a job, or all artifacts of the project that are not kept.", { ...project, "job id": int("Only this job's artifacts.") }],
      ["clear", "runner caches", "Invalidate the project's runner caches so the next jobs start with a clean cache.", { ...project }],
      ["lint", "config", "Validate a CI configuration file and return errors, warnings and the merged YAML.", { ...project, "content!": str("The YAML configuration to check."), "include merged yaml": bool("Return the expanded configuration.") }],
      ["get", "pipeline test report", "Get the unit test report of a pipeline: total, failed and skipped counts per suite, and the failing test cases with their messages.", { ...project, "pipeline id!": int("Pipeline ID."), "failed only": bool("Only failing test cases.") }],
      ["list", "protected branches", "List protected branches and who may push to or merge into them.", { ...project }],
      ["protect", "branch", "Protect a branch so only allowed roles can push or merge, and deploy jobs use protected variables.", { ...project, "name!": str("Branch name or wildcard."), "push access level": en(["no one", "developer", "maintainer"], "Who can push."), "merge access level": en(["developer", "maintainer"], "Who can merge.") }],
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// dotted (resource.verb) servers

function mail() {
  const msgId = { "message id!": str("ID of the message.") };
  const recipients = (what) => arr(`${what} email addresses.`);
  return {
    where: "in the mailbox",
    paging: { "max results": int("Maximum results per page (default 50, max 500)."), "page token": str("Token from the previous page.") },
    resources: [
      {
        n: "message",
        id: msgId,
        what: "Messages are individual emails, received or sent.",
        filters: {
          "label ids": arr("Only messages with all these labels, e.g. INBOX, UNREAD, STARRED."),
          "include spam trash": bool("Include messages in Spam and Trash."),
        },
        returns: "headers (from, to, cc, subject, date), plain-text and HTML body, labels and attachment list",
        searchIn: "sender, recipients, subject and body, with operators like from:, to:, subject:, has:attachment, is:unread, after: and larger:",
        verbs: "lgds",
        extra: { g: { format: en(["full", "metadata", "minimal", "raw"], "How much of the message to return.") } },
        notes: { d: "The message is deleted immediately and permanently; use messages.trash to move it to Trash instead." },
        custom: [
          { v: "send", noId: true, d: "Compose and send an email, with optional CC/BCC, HTML body and attachments.", p: { "to!": recipients("Recipient"), "subject!": str("Subject line."), "body!": str("Message body (plain text, or HTML when html is true)."), cc: recipients("CC"), bcc: recipients("BCC"), html: bool("Body is HTML."), attachments: arr("Files, each {filename, mime type, content base64}.", "object") } },
          { v: "reply", d: "Reply to a message in the same thread, quoting it; reply all includes every original recipient.", p: { "body!": str("Reply text."), "reply all": bool("Reply to all recipients."), attachments: arr("Files to attach.", "object") } },
          { v: "forward", d: "Forward a message, including its attachments, to new recipients.", p: { "to!": recipients("Recipient"), note: str("Text added above the forwarded message.") } },
          { v: "trash", d: "Move a message to Trash; it is deleted for good after 30 days." },
          { v: "untrash", d: "Restore a message from Trash." },
          { v: "modify", o: "labels", d: "Add or remove labels on a message, e.g. archive it by removing INBOX or star it by adding STARRED.", p: { "add label ids": arr("Labels to add."), "remove label ids": arr("Labels to remove.") } },
          { v: "mark", o: "read", d: "Mark a message as read (removes the UNREAD label)." },
          { v: "mark", o: "unread", d: "Mark a message as unread." },
          { v: "get", o: "attachment", d: "Download one attachment of a message as base64 data.", p: { "attachment id!": str("Attachment ID from messages.get.") } },
          { v: "batch modify", pl: true, noId: true, d: "Add or remove labels on up to 1000 messages at once.", p: { "ids!": arr("Message IDs."), "add label ids": arr("Labels to add."), "remove label ids": arr("Labels to remove.") } },
        ],
      },
      {
        n: "draft",
        id: { "draft id!": str("ID of the draft.") },
        what: "Drafts are unsent messages that can be edited and sent later.",
        fields: {
          to: recipients("Recipient"),
          subject: str("Subject line."),
          body: str("Message body."),
          cc: recipients("CC"),
          bcc: recipients("BCC"),
          "reply to message id": str("Make the draft a reply to this message."),
        },
        verbs: "lgcud",
        notes: { u: "The draft's content is replaced as a whole." },
        custom: [{ v: "send", d: "Send an existing draft to its recipients; it then leaves Drafts and appears in Sent." }],
      },
      {
        n: "label",
        id: { "label id!": str("Label ID, e.g. Label_12 or a system label like INBOX.") },
        what: "Labels organize messages like folders; a message can have several.",
        fields: {
          "name!": str("Label name; use slashes for nesting, e.g. Clients/Acme."),
          "label list visibility": en(["labelShow", "labelShowIfUnread", "labelHide"], "Visibility in the label list."),
          "message list visibility": en(["show", "hide"], "Visibility on messages."),
          color: str("Background hex color."),
        },
        returns: "name, type, colors and total and unread message counts",
        verbs: "lgcud",
        notes: { d: "Messages keep existing; only the label is removed from them." },
      },
      {
        n: "thread",
        id: { "thread id!": str("ID of the conversation thread.") },
        what: "Threads are conversations: a message and all its replies.",
        filters: { query: str("Only threads matching this search (same syntax as messages.search)."), "label ids": arr("Only threads with these labels.") },
        returns: "every message of the conversation in order",
        verbs: "lgd",
        custom: [
          { v: "trash", d: "Move a whole conversation to Trash." },
          { v: "modify", o: "labels", d: "Add or remove labels on every message of a thread.", p: { "add label ids": arr("Labels to add."), "remove label ids": arr("Labels to remove.") } },
          { v: "archive", d: "Archive a conversation: remove it from the inbox without deleting it." },
        ],
      },
      {
        n: "filter",
        id: { "filter id!": str("ID of the filter.") },
        what: "Filters act on incoming mail automatically (label, archive, forward, delete).",
        fields: {
          from: str("Match the sender."),
          to: str("Match a recipient."),
          subject: str("Match words in the subject."),
          "has words": str("Match a search query."),
          "add label ids": arr("Labels to apply."),
          "remove label ids": arr("Labels to remove, e.g. INBOX to skip the inbox."),
          "forward to": str("Forward matching mail to this verified address."),
        },
        verbs: "lgcd",
      },
    ],
    tools: [
      ["get", "vacation responder", "Get the out-of-office auto-reply settings.", {}],
      ["update", "vacation responder", "Turn the out-of-office auto-reply on or off and set its subject, message and dates.", { "enabled!": bool("Whether auto-reply is on."), subject: str("Reply subject."), message: str("Reply body."), "start time": str("When to start (ISO 8601)."), "end time": str("When to stop."), "restrict to contacts": bool("Only reply to people in your contacts.") }],
      ["update", "signature", "Set the signature appended to outgoing mail for a send-as address.", { "signature!": str("Signature HTML or text."), "send as email": str("Address it applies to (default primary).") }],
      ["get", "profile", "Get the mailbox's email address and total message and thread counts.", {}],
      ["search", "contacts", "Look up email addresses in the address book and frequent correspondents by name.", { "query!": str("Name or partial address."), limit: int("Maximum matches.") }],
      ["list", "send as aliases", "List the addresses you can send mail from (your primary address and send-as aliases) with display names and signatures.", {}],
      ["list", "forwarding addresses", "List the verified addresses mail can be forwarded to.", {}],
      ["update", "auto forwarding", "Turn automatic forwarding of all incoming mail on or off, and choose what happens to the original.", { "enabled!": bool("Forward incoming mail."), "email address": str("Verified forwarding address."), disposition: en(["leaveInInbox", "archive", "trash", "markRead"], "What to do with the original message.") }],
      ["list", "delegates", "List the users who have delegated access to this mailbox.", {}],
      ["add", "delegates", "Grant another user delegated access to read, send and delete mail on your behalf.", { "delegate email!": str("Email address of the delegate.") }],
      ["import", "messages", "Insert a message into the mailbox as if it had been received, without sending it (e.g. when migrating mail).", { "raw!": str("Full RFC 822 message, base64url-encoded."), "label ids": arr("Labels to apply."), "never mark spam": bool("Skip spam classification.") }],
      ["watch", "mailbox", "Subscribe to push notifications about mailbox changes on a Pub/Sub topic; the watch lasts 7 days.", { "topic name!": str("Full Pub/Sub topic name."), "label ids": arr("Only notify about changes to these labels.") }],
      ["stop watching", "mailbox", "Stop push notifications for the mailbox.", {}],
    ],
  };
}

function wiki() {
  const pageId = { "page id!": str("ID of the page.") };
  const spaceKey = str("Key of the space, e.g. ENG.");
  return {
    titles: true,
    where: "in the wiki",
    paging: { limit: int("Results per page (default 25)."), cursor: str("Cursor for the next page.") },
    resources: [
      {
        n: "page",
        id: pageId,
        what: "Pages are the wiki's documents, organized in a tree inside a space.",
        fields: {
          "space key!": spaceKey,
          "title!": str("Page title (unique within the space)."),
          "body!": str("Page content in Markdown or storage format."),
          "parent page id": str("Create under this page (default: the space home)."),
          labels: arr("Labels to add."),
        },
        ufields: { title: str("New title."), body: str("New content (replaces the old)."), "version message": str("Note describing the change.") },
        filters: { "space key": spaceKey, title: str("Exact title."), status: en(["current", "archived", "draft"], "Page status."), label: str("Only pages with this label.") },
        searchIn: "titles, body text and labels",
        sfilters: { "space key": spaceKey },
        returns: "title, body, space, parent, version, author and last editor",
        verbs: "lgcuds",
        notes: { d: "The page goes to the space trash and can be restored by a space admin; child pages move up a level.", u: "A new version is recorded; earlier versions stay in the page history." },
        extra: { g: { "body format": en(["markdown", "storage", "view"], "Format of the returned body.") } },
        custom: [
          { v: "move", d: "Move a page (with its children) under another parent page or into another space.", p: { "target parent id!": str("New parent page."), "target space key": spaceKey } },
          { v: "copy", d: "Copy a page, optionally with its attachments and child pages.", p: { "destination parent id!": str("Parent for the copy."), "new title": str("Title of the copy."), "include children": bool("Copy child pages too.") } },
          { v: "list", o: "children", d: "List the direct child pages of a page in tree order." },
          { v: "list", o: "versions", d: "List the version history of a page: version numbers, authors, dates and change messages." },
          { v: "get", o: "version", d: "Get the content of a page as it was at a given version.", p: { "version number!": int("Version to fetch.") } },
          { v: "restore", o: "version", d: "Restore an earlier version of a page; this creates a new version with the old content.", p: { "version number!": int("Version to restore.") } },
          { v: "export", d: "Export a page as PDF, HTML or Markdown.", p: { "format!": en(["pdf", "html", "markdown"], "Export format.") } },
          { v: "archive", d: "Archive a page: it leaves the page tree and search but can be restored." },
        ],
      },
      {
        n: "space",
        id: { "space key!": spaceKey },
        what: "Spaces group the pages of a team or project, with their own permissions.",
        fields: { "key!": str("Space key (uppercase letters and digits)."), "name!": str("Space name."), description: str("Description."), private: bool("Only visible to its members.") },
        ufields: { name: str("New name."), description: str("New description."), "homepage id": str("Page to use as the space home.") },
        filters: { type: en(["global", "personal"], "Space type."), status: en(["current", "archived"], "Space status.") },
        verbs: "lgcu",
        custom: [{ v: "archive", d: "Archive a space: its pages become read-only and drop out of search." }],
      },
      {
        n: "comment",
        where: "on a page",
        parent: pageId,
        id: { "comment id!": str("ID of the comment.") },
        what: "Comments are the discussion under a page, or inline on a piece of its text.",
        fields: { "body!": str("Comment text."), "inline selection": str("Exact text on the page the comment anchors to, for an inline comment."), "parent comment id": str("Reply to this comment.") },
        ufields: { body: str("New text.") },
        verbs: "lcud",
        custom: [{ v: "resolve", d: "Resolve an inline comment thread so it is hidden from the page." }],
      },
      {
        n: "attachment",
        where: "on a page",
        parent: pageId,
        id: { "attachment id!": str("ID of the attachment.") },
        what: "Attachments are files stored on a page, such as images and PDFs.",
        returns: "file name, media type, size, version and download link",
        verbs: "lgd",
        custom: [{ v: "upload", noId: true, d: "Upload a file as an attachment of a page; a file with the same name gets a new version.", p: { "filename!": str("File name."), "content base64!": str("File content, base64-encoded."), comment: str("Version comment.") } }],
      },
      {
        n: "label",
        parent: pageId,
        id: { "label!": str("Label name (lowercase, no spaces).") },
        verbs: "l",
        desc: { l: "List the labels on a page." },
        custom: [
          { v: "add", d: "Add a label to a page, for grouping related pages." },
          { v: "remove", d: "Remove a label from a page." },
        ],
      },
      {
        n: "template",
        id: { "template id!": str("ID of the template.") },
        what: "Templates are reusable page skeletons such as meeting notes or retrospectives.",
        fields: { "name!": str("Template name."), "body!": str("Template content with placeholders."), "space key": spaceKey, description: str("Description.") },
        verbs: "lgcd",
      },
      {
        n: "blog post",
        id: { "blog post id!": str("ID of the blog post.") },
        what: "Blog posts are dated announcements published in a space's blog.",
        fields: { "space key!": spaceKey, "title!": str("Post title."), "body!": str("Post content in Markdown or storage format."), labels: arr("Labels.") },
        ufields: { title: str("New title."), body: str("New content.") },
        filters: { "space key": spaceKey, "published after": str("Only posts published after this date.") },
        verbs: "lgcud",
      },
    ],
    tools: [
      ["get", "permissions", "Get the view and edit restrictions of a page: which users and groups may read or change it.", { ...pageId }],
      ["update", "permissions", "Set the view and edit restrictions of a page.", { ...pageId, "restrictions!": arr("Restrictions, each {operation: read|update, users, groups}.", "object") }],
      ["add", "watchers", "Make a user watch a page so they are notified about edits and comments.", { ...pageId, "user id!": str("User to add as watcher.") }],
      ["search", "users", "Find wiki users by name or email to get their IDs for mentions, watchers and permissions.", { "query!": str("Name or email fragment."), limit: int("Maximum users.") }],
      ["get", "space permissions", "List who can view, edit, administer or export in a space.", { "space key!": spaceKey }],
      ["add", "space permissions", "Grant a user or group a permission in a space.", { "space key!": spaceKey, "principal!": str("User ID or group name."), "operation!": en(["read", "create", "delete", "export", "administer"], "Permission to grant.") }],
      ["get", "page analytics", "Get the view count and unique viewers of a page over a period.", { ...pageId, from: str("Start date (default 30 days ago).") }],
    ],
  };
}

function s3() {
  const bucket = { "bucket!": str("Bucket name.") };
  const key = { "key!": str("Object key, the full path inside the bucket, e.g. logs/2024/app.log.") };
  const policyDoc = str("The document as a JSON string.");
  return {
    paging: { "max keys": int("Maximum keys per page (default 1000)."), "continuation token": str("Token from the previous page.") },
    resources: [
      {
        n: "bucket",
        id: bucket,
        what: "Buckets are the top-level containers of objects, each in one region.",
        fields: {
          "bucket!": str("Globally unique bucket name (3-63 lowercase characters)."),
          region: str("Region to create it in, e.g. eu-west-1."),
          acl: en(["private", "public-read"], "Canned ACL (default private)."),
          "object lock enabled": bool("Enable object lock (WORM) for the bucket."),
        },
        verbs: "lcd",
        desc: { l: "List all buckets owned by the account, with creation dates." },
        notes: { d: "The bucket must be empty unless force is set, which deletes every object and version first." },
        extra: { d: { force: bool("Empty the bucket first.") } },
        custom: [
          { v: "get", o: "replication", d: "Get the cross-region or same-region replication rules of a bucket." },
          { v: "put", o: "replication", d: "Configure replication of new objects to a destination bucket (versioning must be on in both).", p: { "role arn!": str("IAM role used to replicate."), "rules!": arr("Rules, each {prefix, destination bucket, storage class}.", "object") } },
          { v: "get", o: "notification", d: "Get the event notifications of a bucket (e.g. object created -> queue, topic or function)." },
          { v: "put", o: "notification", d: "Send bucket events such as ObjectCreated or ObjectRemoved to a queue, topic or function.", p: { "configurations!": arr("Targets, each {events, target arn, prefix, suffix}.", "object") } },
          { v: "get", o: "logging", d: "Get where server access logs of a bucket are written." },
          { v: "put", o: "logging", d: "Enable server access logging into a target bucket and prefix.", p: { "target bucket!": str("Bucket receiving the logs."), "target prefix": str("Key prefix for log files.") } },
          { v: "get", o: "website", d: "Get the static website hosting configuration of a bucket." },
          { v: "put", o: "website", d: "Host a static website from a bucket, with index and error documents and redirect rules.", p: { "index document!": str("e.g. index.html."), "error document": str("e.g. 404.html.") } },
          { v: "get", o: "public access block", d: "Get the settings that block public ACLs and public bucket policies." },
          { v: "put", o: "public access block", d: "Block (or allow) public access to a bucket through ACLs and policies.", p: { "block public acls": bool("Reject public ACLs."), "block public policy": bool("Reject public bucket policies."), "restrict public buckets": bool("Restrict access to public buckets.") } },
          { v: "get", o: "policy", d: "Get the bucket policy, the JSON document granting access to principals." },
          { v: "put", o: "policy", d: "Replace the bucket policy, e.g. to allow public reads of a prefix or access from another account.", p: { "policy!": policyDoc } },
          { v: "delete", o: "policy", d: "Remove the bucket policy." },
          { v: "get", o: "versioning", d: "Get whether object versioning is enabled, suspended or never configured." },
          { v: "put", o: "versioning", d: "Enable or suspend object versioning, which keeps every version of overwritten and deleted objects.", p: { "status!": en(["Enabled", "Suspended"], "Versioning state.") } },
          { v: "get", o: "lifecycle", d: "Get the lifecycle rules that transition objects to cheaper storage classes or expire them." },
          { v: "put", o: "lifecycle", d: "Set lifecycle rules, e.g. move objects under logs/ to Glacier after 30 days and delete them after a year.", p: { "rules!": arr("Rules, each {id, prefix, transition days, storage class, expiration days}.", "object") } },
          { v: "get", o: "cors", d: "Get the CORS configuration that lets browsers on other origins access the bucket." },
          { v: "put", o: "cors", d: "Set the CORS rules of a bucket: allowed origins, methods and headers.", p: { "rules!": arr("Rules, each {allowed origins, allowed methods, allowed headers, max age seconds}.", "object") } },
          { v: "get", o: "encryption", d: "Get the default server-side encryption settings (SSE-S3 or SSE-KMS) of a bucket." },
          { v: "put", o: "encryption", d: "Set default server-side encryption for new objects.", p: { "algorithm!": en(["AES256", "aws:kms"], "Encryption algorithm."), "kms key id": str("KMS key for aws:kms.") } },
          { v: "get", o: "tagging", d: "Get the cost-allocation tags of a bucket." },
          { v: "put", o: "tagging", d: "Replace the tags of a bucket.", p: { "tags!": obj("Tag key to value.") } },
          { v: "get", o: "location", d: "Get the region a bucket lives in." },
        ],
      },
      {
        n: "object",
        where: "in a bucket",
        parent: bucket,
        id: key,
        what: "Objects are the stored files, addressed by key.",
        filters: { prefix: str("Only keys starting with this, e.g. 'images/'."), delimiter: str("Group keys by this character, usually '/', to list 'folders'."), "start after": str("Start listing after this key.") },
        verbs: "ld",
        notes: { d: "In a versioned bucket this adds a delete marker; pass version id to remove a specific version." },
        extra: { d: { "version id": str("Delete this version permanently.") } },
        custom: [
          { v: "get", o: "acl", d: "Get the access control list of an object." },
          { v: "put", o: "acl", d: "Set a canned ACL on an object, e.g. make a single file public-read.", p: { "acl!": en(["private", "public-read", "authenticated-read", "bucket-owner-full-control"], "Canned ACL.") } },
          { v: "put", o: "retention", d: "Lock an object version against deletion until a date (object lock retention).", p: { "mode!": en(["GOVERNANCE", "COMPLIANCE"], "Retention mode."), "retain until!": str("ISO 8601 date.") } },
          { v: "put", o: "legal hold", d: "Place or remove a legal hold that prevents an object version from being deleted.", p: { "status!": en(["ON", "OFF"], "Legal hold state.") } },
          { v: "get", d: "Download an object's content (text, or base64 for binary data), optionally a byte range or a specific version.", p: { "version id": str("Version to read."), range: str("Byte range, e.g. bytes=0-1023."), "as text": bool("Decode the body as UTF-8 text.") } },
          { v: "put", d: "Upload an object (up to 5 GB in one request), replacing any object with the same key.", p: { "body!": str("Content: text, or base64 when base64 is true."), base64: bool("Body is base64-encoded."), "content type": str("MIME type, e.g. image/png."), metadata: obj("User metadata (x-amz-meta-*)."), "storage class": en(["STANDARD", "STANDARD_IA", "INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE"], "Storage class."), "cache control": str("Cache-Control header.") } },
          { v: "head", d: "Get an object's metadata (size, content type, ETag, last modified, storage class, user metadata) without downloading it.", p: { "version id": str("Version to inspect.") } },
          { v: "copy", d: "Copy an object to this key, from the same or another bucket, server-side.", p: { "source bucket!": str("Bucket to copy from."), "source key!": str("Key to copy from."), "metadata directive": en(["COPY", "REPLACE"], "Keep or replace the metadata.") } },
          { v: "delete many", pl: true, noId: true, d: "Delete up to 1000 objects in one request.", p: { "keys!": arr("Keys to delete."), quiet: bool("Only report errors.") } },
          { v: "list", o: "versions", pl: true, noId: true, d: "List the versions and delete markers of objects in a versioned bucket.", p: { prefix: str("Only keys with this prefix."), "max keys": int("Page size.") } },
          { v: "get", o: "tagging", d: "Get the tags of an object." },
          { v: "put", o: "tagging", d: "Replace the tags of an object.", p: { "tags!": obj("Tag key to value.") } },
          { v: "restore", d: "Restore an archived object from Glacier or Deep Archive for a number of days.", p: { "days!": int("How long the restored copy stays available."), tier: en(["Expedited", "Standard", "Bulk"], "Retrieval speed.") } },
          { v: "presign", d: "Create a presigned URL that lets anyone download (GET) or upload (PUT) the object until it expires.", p: { method: en(["GET", "PUT"], "Allowed method (default GET)."), "expires in seconds": int("Validity (default 3600, max 604800).") } },
          { v: "select", d: "Run a SQL expression over a CSV, JSON or Parquet object and return only the matching records.", p: { "expression!": str("SQL, e.g. SELECT s.name FROM S3Object s WHERE s.age > 30."), "input format!": en(["CSV", "JSON", "Parquet"], "Object format."), "csv header": bool("First CSV line is a header.") } },
        ],
      },
      {
        n: "multipart upload",
        parent: { ...bucket, ...key },
        id: { "upload id!": str("ID of the multipart upload.") },
        verbs: "",
        custom: [
          { v: "create", noId: true, d: "Start a multipart upload for a large object and return its upload ID; upload parts of at least 5 MB each.", p: { "content type": str("MIME type of the final object.") } },
          { v: "upload", o: "part", d: "Upload one part of a multipart upload; returns the part's ETag.", p: { "part number!": int("Part number, 1-10000."), "body base64!": str("Part content, base64-encoded.") } },
          { v: "complete", d: "Assemble the uploaded parts into the final object.", p: { "parts!": arr("Parts in order, each {part number, etag}.", "object") } },
          { v: "abort", d: "Abort a multipart upload and delete the parts already uploaded." },
          { v: "list", o: "parts", d: "List the parts uploaded so far for a multipart upload." },
          { v: "list", noParent: true, noId: true, d: "List the multipart uploads in progress in a bucket (incomplete uploads still cost storage).", p: { ...bucket, prefix: str("Only uploads for keys with this prefix.") } },
        ],
      },
    ],
  };
}

function metrics() {
  const range = { start: str("Start of the range (RFC 3339 or relative like -1h)."), end: str("End of the range (default now).") };
  return {
    paging: { limit: int("Maximum items to return.") },
    resources: [
      {
        n: "alert rule",
        id: { "rule id!": str("ID of the alert rule.") },
        what: "Alert rules evaluate a query periodically and fire when its condition holds long enough.",
        fields: {
          "name!": str("Alert name, e.g. HighErrorRate."),
          "expression!": str("PromQL condition, e.g. rate(http_requests_total{code=~\"5..\"}[5m]) > 0.05."),
          "group!": str("Rule group it belongs to."),
          "for duration": str("How long the condition must hold before firing, e.g. 10m."),
          severity: en(["critical", "warning", "info"], "Severity label."),
          summary: str("Human-readable summary annotation; may use {{ $labels }}."),
          labels: obj("Extra labels for routing."),
        },
        filters: { group: str("Only rules of this group."), state: en(["inactive", "pending", "firing"], "Current state.") },
        verbs: "lgcud",
      },
      {
        n: "silence",
        id: { "silence id!": str("ID of the silence.") },
        what: "Silences mute notifications for alerts matching label matchers during a time window, e.g. during maintenance.",
        fields: {
          "matchers!": arr("Label matchers, each {name, value, is regex}.", "object"),
          "ends at!": str("When the silence ends (RFC 3339) or a duration like 2h."),
          "comment!": str("Why the alerts are silenced."),
          "starts at": str("When it starts (default now)."),
          "created by": str("Who created it."),
        },
        filters: { state: en(["active", "pending", "expired"], "Silence state.") },
        verbs: "lgc",
        custom: [{ v: "expire", d: "End a silence now so its alerts notify again." }],
      },
      {
        n: "dashboard",
        id: { "uid!": str("Dashboard UID.") },
        what: "Dashboards arrange panels of graphs and tables over metrics, logs and traces.",
        fields: { "title!": str("Dashboard title."), "folder uid": str("Folder to store it in."), panels: arr("Panel definitions.", "object"), tags: arr("Tags."), refresh: str("Auto-refresh interval, e.g. 30s.") },
        ufields: { title: str("New title."), panels: arr("New panel list (replaces all panels).", "object"), tags: arr("New tags."), message: str("Version history message.") },
        filters: { tag: str("Only dashboards with this tag."), "folder uid": str("Only this folder.") },
        searchIn: "titles, tags and panel titles",
        verbs: "lgcuds",
        custom: [{ v: "render", d: "Render a dashboard or one of its panels to a PNG image for a time range.", p: { "panel id": int("Render only this panel."), from: str("Range start, e.g. now-6h."), to: str("Range end."), width: int("Image width in pixels."), height: int("Image height in pixels.") } }],
      },
      {
        n: "annotation",
        id: { "annotation id!": int("ID of the annotation.") },
        what: "Annotations mark events such as deploys or incidents on graphs.",
        fields: { "text!": str("Annotation text."), "time!": str("When it happened."), "time end": str("End, for a region annotation."), tags: arr("Tags, e.g. deploy."), "dashboard uid": str("Limit to one dashboard (default: all).") },
        filters: { ...range, tags: arr("Only annotations with these tags."), "dashboard uid": str("Only this dashboard.") },
        verbs: "lcd",
      },
      {
        n: "slo",
        label: "SLO",
        id: { "slo id!": str("ID of the SLO.") },
        what: "Service level objectives track the share of good events against a target over a window.",
        fields: {
          "name!": str("SLO name, e.g. checkout availability."),
          "target!": num("Objective as a fraction, e.g. 0.999."),
          "good query!": str("Query counting good events."),
          "total query!": str("Query counting all events."),
          window: en(["7d", "28d", "30d"], "Rolling window (default 30d)."),
        },
        returns: "target, current attainment and remaining error budget",
        verbs: "lgcd",
        custom: [{ v: "get", o: "burn rate", d: "Get how fast an SLO is consuming its error budget over short and long windows, to tell whether to page someone.", p: { window: en(["1h", "6h", "1d", "3d"], "Look-back window.") } }],
      },
      {
        n: "notification channel",
        id: { "channel uid!": str("UID of the notification channel.") },
        what: "Notification channels (contact points) deliver alerts to Slack, email, PagerDuty or webhooks.",
        fields: { "name!": str("Channel name."), "type!": en(["slack", "email", "pagerduty", "webhook", "opsgenie"], "Integration type."), "settings!": obj("Type-specific settings, e.g. {url} or {addresses}."), "send resolved": bool("Also notify when alerts resolve.") },
        verbs: "lgcud",
      },
      {
        n: "folder",
        id: { "folder uid!": str("UID of the folder.") },
        what: "Folders group dashboards and alert rules and carry their permissions.",
        fields: { "title!": str("Folder title."), "parent uid": str("Parent folder for nesting.") },
        verbs: "lcd",
        notes: { d: "Dashboards and alert rules inside it are deleted too." },
      },
      {
        n: "recording rule",
        id: { "rule id!": str("ID of the recording rule.") },
        what: "Recording rules precompute expensive queries into new series.",
        fields: { "record!": str("Name of the series to write, e.g. job:http_requests:rate5m."), "expression!": str("PromQL expression to evaluate."), "group!": str("Rule group."), interval: str("Evaluation interval, e.g. 1m.") },
        verbs: "lcd",
      },
      {
        n: "incident",
        id: { "incident id!": str("ID of the incident.") },
        what: "Incidents group related alerts for on-call response.",
        filters: { status: en(["triggered", "acknowledged", "resolved"], "Incident status."), service: str("Only incidents of this service.") },
        returns: "status, severity, the alerts it groups, responders and timeline",
        verbs: "lg",
        custom: [
          { v: "acknowledge", d: "Acknowledge an incident so escalation stops paging the next responder.", p: { note: str("Note for the timeline.") } },
          { v: "resolve", d: "Resolve an incident once the problem is fixed.", p: { resolution: str("What fixed it.") } },
        ],
      },
    ],
    tools: [
      ["instant", "query", "Evaluate a PromQL expression at a single point in time and return the resulting vector, e.g. current CPU usage per pod.", { "query!": str("PromQL expression."), time: str("Evaluation time (default now)."), timeout: str("Query timeout, e.g. 30s.") }],
      ["range", "query", "Evaluate a PromQL expression over a time range at a fixed step and return time series, e.g. request rate over the last 24 hours.", { "query!": str("PromQL expression."), "start!": str("Range start."), end: str("Range end (default now)."), step: str("Resolution, e.g. 60s (default: auto).") }],
      ["list", "series", "Find the time series that match label selectors, without their values.", { "match!": arr("Series selectors, e.g. up{job=\"api\"}."), ...range }],
      ["list", "labels", "List label names present in the metrics store, optionally only on matching series.", { match: arr("Only labels of these series."), ...range }],
      ["list", "label values", "List the values a label takes, e.g. every value of 'service' or 'instance'.", { "label!": str("Label name."), match: arr("Only values on these series.") }],
      ["list", "metadata", "List metric names with their type (counter, gauge, histogram) and help text.", { metric: str("Only this metric."), limit: int("Maximum metrics.") }],
      ["list", "targets", "List the scrape targets with their health, last scrape time and last error.", { state: en(["active", "dropped", "any"], "Target state."), job: str("Only this scrape job.") }],
      ["list", "alerts", "List alerts that are currently firing or pending, with their labels, annotations and since when they are active.", { state: en(["firing", "pending", "all"], "Alert state (default firing)."), severity: str("Only this severity."), matchers: arr("Label matchers to filter alerts.") }],
      ["query", "logs", "Query logs with a LogQL-style expression, e.g. {app=\"api\"} |= \"timeout\", and return matching lines newest first.", { "query!": str("Log query."), ...range, limit: int("Maximum lines (default 100)."), direction: en(["backward", "forward"], "Newest first (backward) or oldest first.") }],
      ["search", "traces", "Search distributed traces by service, operation, duration and tags.", { "service!": str("Service name."), operation: str("Span/operation name."), "min duration": str("e.g. 500ms."), tags: obj("Span tags to match, e.g. {\"http.status_code\": \"500\"}."), ...range, limit: int("Maximum traces.") }],
      ["get", "traces", "Get every span of one trace by ID, with timings, services and tags, to see where a request spent its time.", { "trace id!": str("Trace ID (hex).") }],
      ["list", "services", "List the services that report traces, with their operations.", {}],
    ],
  };
}

function dns() {
  const zone = { "zone id!": str("Zone ID or domain name, e.g. example.com.") };
  const recType = en(["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SRV", "CAA", "PTR"], "Record type.");
  return {
    paging: { "per page": int("Results per page (default 100)."), page: int("Page number.") },
    resources: [
      {
        n: "zone",
        id: zone,
        what: "Zones are the domains whose DNS this service answers for.",
        fields: { "name!": str("Domain name, e.g. example.com."), type: en(["full", "partial"], "Full setup (our nameservers) or partial (CNAME setup)."), "import existing": bool("Scan for existing records and import them.") },
        filters: { name: str("Only zones whose name contains this."), status: en(["active", "pending", "moved"], "Zone status.") },
        returns: "status, assigned nameservers, plan and DNSSEC state",
        verbs: "lgcd",
        notes: { d: "All records of the zone are deleted with it." },
        custom: [
          { v: "purge", o: "cache", d: "Purge cached content for a zone from the CDN edge: everything, or specific URLs, tags or host names.", p: { everything: bool("Purge all cached files."), files: arr("URLs to purge."), tags: arr("Cache tags to purge."), hosts: arr("Host names to purge.") } },
          { v: "get", o: "settings", d: "Get the zone settings: SSL mode, minimum TLS version, always use HTTPS, caching level and others." },
          { v: "update", o: "settings", d: "Change zone settings such as SSL mode, always use HTTPS or minimum TLS version.", p: { "settings!": obj("Setting name to value, e.g. {\"ssl\": \"strict\"}.") } },
          { v: "export", d: "Export all records of a zone as a BIND zone file." },
          { v: "import", d: "Import records from a BIND zone file into a zone.", p: { "zone file!": str("Zone file contents."), overwrite: bool("Replace existing records with the same name and type.") } },
          { v: "get", o: "dnssec", d: "Get the DNSSEC status of a zone and the DS record to publish at the registrar." },
          { v: "enable", o: "dnssec", d: "Turn on DNSSEC signing for a zone; returns the DS record to add at the registrar." },
          { v: "disable", o: "dnssec", d: "Turn off DNSSEC signing. Remove the DS record at the registrar first to avoid resolution failures." },
          { v: "set", o: "nameservers", d: "Set custom (vanity) nameservers for a zone.", p: { "nameservers!": arr("Nameserver host names.") } },
        ],
      },
      {
        n: "record",
        where: "in a zone",
        parent: zone,
        id: { "record id!": str("ID of the DNS record.") },
        what: "Records map names in the zone to addresses, aliases, mail servers and text.",
        fields: {
          "type!": recType,
          "name!": str("Record name: '@' for the apex or a subdomain like www or api.eu."),
          "content!": str("Record value: IP address, target host name or text."),
          ttl: int("Time to live in seconds; 1 means automatic."),
          priority: int("Priority, for MX and SRV records."),
          proxied: bool("Route traffic through the proxy/CDN (A, AAAA, CNAME only)."),
          comment: str("Note about the record."),
        },
        filters: { type: recType, name: str("Exact record name."), content: str("Exact record value.") },
        verbs: "lgcud",
        custom: [{ v: "batch", pl: true, noId: true, d: "Create, update and delete several records of a zone atomically.", p: { creates: arr("Records to create.", "object"), updates: arr("Records to update, each with its ID.", "object"), deletes: arr("IDs of records to delete.") } }],
      },
      {
        n: "health check",
        id: { "check id!": str("ID of the health check.") },
        what: "Health checks probe an origin so failover records can stop answering with it when it is down.",
        fields: { "name!": str("Check name."), "address!": str("Host or IP to probe."), type: en(["HTTP", "HTTPS", "TCP"], "Protocol."), path: str("Path for HTTP checks."), "interval seconds": int("How often to probe."), "expected codes": str("Healthy status codes, e.g. 2xx.") },
        verbs: "lgcd",
      },
      {
        n: "certificate",
        where: "for a zone",
        parent: zone,
        id: { "certificate id!": str("ID of the edge certificate.") },
        what: "Edge certificates serve HTTPS for the zone's host names.",
        fields: { "hosts!": arr("Host names the certificate covers, wildcards allowed."), authority: en(["lets_encrypt", "google", "digicert"], "Certificate authority."), "validity days": int("Validity period.") },
        returns: "hosts, status, issuer, expiry date and validation records",
        verbs: "lgcd",
        verbNames: { c: "order" },
      },
      {
        n: "redirect rule",
        where: "in a zone",
        parent: zone,
        id: { "rule id!": str("ID of the redirect rule.") },
        what: "Redirect rules send visitors from one URL pattern to another at the edge.",
        fields: { "source url!": str("URL pattern, e.g. http://old.example.com/*."), "target url!": str("Destination, may reference wildcards as ${1}."), "status code": int("301 or 302 (default 301)."), "preserve query string": bool("Keep the query string.") },
        verbs: "lcd",
      },
    ],
    tools: [
      ["resolve", "dns", "Resolve a name through public DNS and return the answers with TTLs, like dig.", { "name!": str("Host name to resolve."), type: recType, resolver: str("Resolver to ask, e.g. 1.1.1.1 (default: system).") }],
      ["reverse lookup", "dns", "Find the host name of an IP address (PTR lookup).", { "ip!": str("IPv4 or IPv6 address.") }],
      ["check", "propagation", "Query resolvers around the world for a record to see whether a DNS change has propagated.", { "name!": str("Host name."), "type!": recType, "expected value": str("Value the record should now have.") }],
      ["lookup", "whois", "Get WHOIS/RDAP registration data for a domain: registrar, creation and expiry dates, nameservers and status.", { "domain!": str("Domain name.") }],
      ["check availability", "domains", "Check whether domain names are available to register, with prices.", { "domains!": arr("Domain names to check.") }],
      ["get query stats", "analytics", "Get DNS query analytics for a zone: query counts by name, type and response code over time.", { ...zone, since: str("Start of the period."), until: str("End of the period."), dimensions: arr("Group by: queryName, queryType, responseCode, coloName.") }],
    ],
  };
}

function browser() {
  const tab = { "tab id": str("Tab to act on (default: the active tab).") };
  const sel = { "selector!": str("CSS selector, text= selector or accessibility ref of the element.") };
  const timeout = { "timeout ms": int("Give up after this many milliseconds (default 30000).") };
  return {
    tools: [
      ["navigate", "page", "Load a URL in the tab and wait until the page has loaded.", { ...tab, "url!": str("Absolute URL to open."), "wait until": en(["load", "domcontentloaded", "networkidle"], "Load state to wait for (default load)."), ...timeout }],
      ["reload", "page", "Reload the current page.", { ...tab, "ignore cache": bool("Bypass the browser cache.") }],
      ["go back", "page", "Go back to the previous page in the tab's history.", { ...tab }],
      ["go forward", "page", "Go forward in the tab's history.", { ...tab }],
      ["screenshot", "page", "Take a PNG or JPEG screenshot of the viewport, the full scrollable page, or one element.", { ...tab, "full page": bool("Capture the whole page, not just the viewport."), selector: str("Only capture this element."), format: en(["png", "jpeg"], "Image format."), quality: int("JPEG quality 0-100.") }],
      ["print to pdf", "page", "Render the current page to a PDF document (base64).", { ...tab, format: en(["A4", "Letter", "Legal"], "Paper size."), landscape: bool("Landscape orientation."), "print background": bool("Include background graphics.") }],
      ["get content", "page", "Get the current page's HTML, or its readable text with scripts and styles stripped.", { ...tab, as: en(["html", "text", "markdown"], "Output format (default text)."), selector: str("Only this element's content.") }],
      ["evaluate", "page", "Run a JavaScript expression or function in the page and return its JSON-serializable result.", { ...tab, "expression!": str("JavaScript expression or function body, e.g. document.title."), "await promise": bool("Await the result if it is a promise.") }],
      ["wait for selector", "page", "Wait until an element matching a selector is attached, visible or hidden.", { ...tab, ...sel, state: en(["attached", "visible", "hidden", "detached"], "State to wait for (default visible)."), ...timeout }],
      ["wait for navigation", "page", "Wait for the next navigation (e.g. after submitting a form) to finish.", { ...tab, "url pattern": str("Glob the new URL should match."), ...timeout }],
      ["set viewport", "page", "Resize the viewport, e.g. to test a mobile layout.", { ...tab, "width!": int("Width in CSS pixels."), "height!": int("Height in CSS pixels."), "device scale factor": num("Device pixel ratio (default 1).") }],
      ["snapshot", "accessibility", "Capture the accessibility tree of the page: roles, names and states of elements, with refs usable as selectors. Better than a screenshot for deciding what to click.", { ...tab, "interesting only": bool("Prune nodes that are not interactive or named (default true).") }],
      ["click", "element", "Click an element, scrolling it into view first and waiting until it is actionable.", { ...tab, ...sel, button: en(["left", "right", "middle"], "Mouse button."), "click count": int("2 for a double click."), modifiers: arr("Keys held during the click: Alt, Control, Meta, Shift."), ...timeout }],
      ["type", "element", "Type text into an element key by key, firing keyboard events like a user would.", { ...tab, ...sel, "text!": str("Text to type."), "delay ms": int("Pause between keystrokes.") }],
      ["fill", "element", "Set the value of an input, textarea or contenteditable element in one step, replacing its content.", { ...tab, ...sel, "value!": str("Value to fill in.") }],
      ["hover", "element", "Move the mouse over an element, e.g. to open a hover menu or tooltip.", { ...tab, ...sel }],
      ["select option", "element", "Choose one or more options of a <select> element by value or label.", { ...tab, ...sel, "values!": arr("Option values or labels to select.") }],
      ["check", "element", "Check or uncheck a checkbox or radio button.", { ...tab, ...sel, checked: bool("Desired state (default true).") }],
      ["get text", "element", "Get the visible text of an element.", { ...tab, ...sel }],
      ["get attribute", "element", "Get an attribute (href, src, value, aria-*...) of an element.", { ...tab, ...sel, "name!": str("Attribute name.") }],
      ["scroll into view", "element", "Scroll the page until an element is visible.", { ...tab, ...sel }],
      ["upload files", "element", "Set the files of an <input type=file> element from local paths.", { ...tab, ...sel, "paths!": arr("Local file paths.") }],
      ["drag to", "element", "Drag an element and drop it onto another element.", { ...tab, ...sel, "target selector!": str("Element to drop onto.") }],
      ["query all", "elements", "Find all elements matching a selector and return their text, tag and key attributes, e.g. every link on the page.", { ...tab, ...sel, attributes: arr("Attributes to include (default href, src, value)."), limit: int("Maximum elements.") }],
      ["press", "keyboard", "Press a key or key combination, such as Enter, Escape, ArrowDown or Control+A.", { ...tab, "key!": str("Key name or combination.") }],
      ["type", "keyboard", "Type text into whatever element has focus.", { ...tab, "text!": str("Text to type.") }],
      ["click", "mouse", "Click at page coordinates.", { ...tab, "x!": num("X in CSS pixels."), "y!": num("Y in CSS pixels."), button: en(["left", "right", "middle"], "Mouse button.") }],
      ["scroll", "mouse", "Scroll the page with the mouse wheel by a number of pixels.", { ...tab, "delta x": num("Horizontal pixels."), "delta y": num("Vertical pixels (positive scrolls down).") }],
      ["list", "tabs", "List the open tabs with their IDs, titles and URLs.", {}],
      ["new", "tabs", "Open a new tab, optionally at a URL, and make it active.", { url: str("URL to open.") }],
      ["close", "tabs", "Close a browser tab; the next tab becomes active.", { ...tab }],
      ["switch", "tabs", "Make a tab the active one.", { "tab id!": str("Tab to activate.") }],
      ["get", "cookies", "Get the browser's cookies, optionally for some URLs only.", { urls: arr("Only cookies that would be sent to these URLs.") }],
      ["set", "cookies", "Set cookies, e.g. to restore a logged-in session.", { "cookies!": arr("Cookies, each {name, value, domain, path, expires, http only, secure}.", "object") }],
      ["clear", "cookies", "Delete all cookies (or those of one domain).", { domain: str("Only cookies of this domain.") }],
      ["get", "local storage", "Read the localStorage entries of the current origin.", { ...tab, key: str("Only this key.") }],
      ["set", "local storage", "Write a localStorage entry for the current origin.", { ...tab, "key!": str("Key."), "value!": str("Value.") }],
      ["list requests", "network", "List the network requests made by the page since it loaded, with URL, method, status, type and timing.", { ...tab, "url filter": str("Only URLs containing this."), "failed only": bool("Only failed or 4xx/5xx requests.") }],
      ["get response body", "network", "Get the body of a response the page received, e.g. the JSON of an API call.", { ...tab, "request id!": str("Request ID from network.listRequests.") }],
      ["route", "network", "Intercept requests matching a URL pattern to block them or answer with a mock response.", { ...tab, "url pattern!": str("Glob of URLs to intercept, e.g. **/api/users*."), action: en(["abort", "fulfill", "continue"], "What to do."), status: int("Status of the mocked response."), body: str("Body of the mocked response."), headers: obj("Headers to add or mock.") }],
      ["set extra headers", "network", "Send extra HTTP headers with every request of the tab, e.g. an Authorization header.", { ...tab, "headers!": obj("Header name to value.") }],
      ["emulate conditions", "network", "Emulate offline mode or a slow connection (latency and throughput).", { ...tab, offline: bool("Go offline."), "latency ms": int("Added round-trip latency."), "download kbps": int("Download throughput."), "upload kbps": int("Upload throughput.") }],
      ["get messages", "console", "Get the console messages (log, warning, error) and uncaught exceptions of the page.", { ...tab, level: en(["all", "error", "warning", "info"], "Minimum level."), clear: bool("Clear the buffer after reading.") }],
      ["handle", "dialog", "Accept or dismiss the next alert, confirm or prompt dialog, optionally entering prompt text.", { ...tab, "accept!": bool("Accept (true) or dismiss (false)."), "prompt text": str("Text for a prompt dialog.") }],
      ["set geolocation", "emulation", "Emulate the device location reported to the page's geolocation API.", { ...tab, "latitude!": num("Latitude."), "longitude!": num("Longitude."), accuracy: num("Accuracy in meters.") }],
      ["emulate device", "emulation", "Emulate a device (viewport, user agent, touch) such as iPhone 15 or Pixel 7.", { ...tab, "device!": str("Device name.") }],
      ["list", "frames", "List the frames (iframes) of the page with their names and URLs, to target elements inside them.", { ...tab }],
      ["list", "downloads", "List files downloaded by the browser in this session with their paths and states.", {}],
      ["add init script", "page", "Add a script that runs in every new document of the tab before the page's own scripts, e.g. to stub APIs.", { ...tab, "script!": str("JavaScript source.") }],
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// hyphenated servers

function translate() {
  const lang = (what) => str(`${what} language as an ISO 639-1 code, e.g. en, de, ja.`);
  return {
    tools: [
      ["translate", "text", "Translate text into a target language; the source language is detected automatically when omitted.", { "text!": str("Text to translate (up to 30,000 characters)."), "target language!": lang("Target"), "source language": lang("Source"), formality: en(["default", "more", "less"], "Formal or informal register, where the language supports it."), format: en(["text", "html"], "Whether the input is plain text or HTML (tags are preserved).") }],
      ["translate", "batch", "Translate many short texts in one call, keeping their order.", { "texts!": arr("Texts to translate (up to 128)."), "target language!": lang("Target"), "source language": lang("Source") }],
      ["detect", "language", "Detect the language of a text, with a confidence score and alternatives.", { "text!": str("Text to analyze.") }],
      ["list", "languages", "List supported languages and which ones can be used as source or target, with names in a display language.", { "display language": lang("Display") }],
      ["transliterate", "text", "Convert text from one script to another without translating it, e.g. Cyrillic to Latin.", { "text!": str("Text to convert."), "language!": lang("Text"), "from script!": str("Source script, e.g. Cyrl."), "to script!": str("Target script, e.g. Latn.") }],
      ["translate", "document", "Start translating a whole document (DOCX, PPTX, PDF, HTML, TXT) while keeping its layout; returns a job ID.", { "file base64!": str("Document content, base64-encoded."), "filename!": str("File name with extension."), "target language!": lang("Target"), "source language": lang("Source"), "glossary id": str("Glossary to apply.") }],
      ["get", "document translation status", "Check the progress of a document translation job and get the download link when done.", { "job id!": str("Job ID from translate-document.") }],
      ["download", "translated document", "Download the translated document of a finished job as base64.", { "job id!": str("Job ID.") }],
      ["create", "glossary", "Create a glossary of fixed term translations (e.g. product names) for a language pair.", { "name!": str("Glossary name."), "source language!": lang("Source"), "target language!": lang("Target"), "entries!": obj("Source term to target term.") }],
      ["list", "glossaries", "List the glossaries with their language pairs and entry counts.", {}],
      ["get", "glossary", "Get a glossary's metadata and entries.", { "glossary id!": str("Glossary ID.") }],
      ["delete", "glossary", "Delete a glossary; translations already made with it are not affected.", { "glossary id!": str("Glossary ID.") }],
      ["translate", "with glossary", "Translate text applying a glossary so listed terms are always translated the same way.", { "text!": str("Text."), "glossary id!": str("Glossary to apply."), "target language!": lang("Target") }],
      ["lookup", "dictionary", "Look up a word in the bilingual dictionary: alternative translations with part of speech, usage frequency and back-translations.", { "word!": str("Word or short phrase."), "source language!": lang("Source"), "target language!": lang("Target") }],
      ["get", "dictionary examples", "Get example sentences showing a word and its translation used in context.", { "word!": str("Source word."), "translation!": str("The chosen translation."), "source language!": lang("Source"), "target language!": lang("Target") }],
      ["check", "grammar", "Check spelling and grammar of a text and suggest corrections.", { "text!": str("Text to check."), "language!": lang("Text") }],
      ["romanize", "text", "Write non-Latin text in Latin letters for pronunciation, e.g. Japanese to romaji or Chinese to pinyin.", { "text!": str("Text to romanize."), language: lang("Text") }],
      ["get", "usage", "Get the characters translated this billing period and the remaining quota.", {}],
      ["transcribe and translate", "audio", "Transcribe speech in an audio file and translate the transcript into a target language.", { "audio base64!": str("Audio content (wav, mp3, flac), base64-encoded."), "target language!": str("Target language code."), "source language": str("Spoken language code (default: detect).") }],
      ["list", "document formats", "List the document formats translate-document accepts, with size limits.", {}],
      ["add", "glossary entries", "Add term pairs to an existing glossary.", { "glossary id!": str("Glossary ID."), "entries!": obj("Source term to target term.") }],
    ],
  };
}

function redis() {
  const key = { "key!": str("Key name.") };
  const keys = { "keys!": arr("Key names.") };
  const ttl = { "ttl seconds": int("Expire the key after this many seconds.") };
  return {
    tools: [
      ["get", "value", "Get the string value stored at a key (GET); returns null if the key does not exist.", { ...key }],
      ["set", "value", "Store a string value at a key (SET), optionally with an expiry and only if the key does or does not exist.", { ...key, "value!": str("Value to store."), ...ttl, "only if absent": bool("NX: only set if the key does not exist (e.g. for a lock)."), "only if present": bool("XX: only set if the key exists."), "keep ttl": bool("Keep the key's existing expiry.") }],
      ["get", "many values", "Get the values of several keys in one round trip (MGET).", { ...keys }],
      ["set", "many values", "Set several keys at once (MSET).", { "entries!": obj("Key to value.") }],
      ["delete", "keys", "Delete one or more keys (DEL, or UNLINK to free memory in the background); returns how many existed.", { ...keys, async: bool("Use UNLINK.") }],
      ["check", "keys exist", "Count how many of the given keys exist (EXISTS).", { ...keys }],
      ["set", "expiry", "Set a time-to-live on a key (EXPIRE/PEXPIRE) after which it is deleted automatically.", { ...key, "seconds!": int("TTL in seconds."), "only if none": bool("NX: only if the key has no expiry yet.") }],
      ["get", "ttl", "Get the remaining time to live of a key in seconds (-1: no expiry, -2: missing key).", { ...key }],
      ["persist", "key", "Remove the expiry from a key so it lives forever.", { ...key }],
      ["increment", "counter", "Atomically increment the integer or float at a key (INCRBY/INCRBYFLOAT), creating it at 0.", { ...key, by: num("Amount to add (default 1).") }],
      ["decrement", "counter", "Atomically decrement the integer at a key (DECRBY).", { ...key, by: int("Amount to subtract (default 1).") }],
      ["scan", "keys", "Iterate over keys matching a glob pattern with SCAN (safe in production, unlike KEYS).", { pattern: str("Glob, e.g. session:*."), type: en(["string", "list", "set", "zset", "hash", "stream"], "Only keys of this type."), count: int("Hint for keys per iteration."), cursor: str("Cursor from the previous call (default 0).") }],
      ["rename", "key", "Rename a key, overwriting the destination unless only if absent is set.", { ...key, "new key!": str("New name."), "only if absent": bool("RENAMENX.") }],
      ["get", "key type", "Get the data type stored at a key: string, list, set, zset, hash or stream.", { ...key }],
      ["copy", "key", "Copy the value at a key to another key.", { "source!": str("Key to copy."), "destination!": str("New key."), replace: bool("Overwrite the destination.") }],
      ["get", "hash field", "Get one field of a hash (HGET).", { ...key, "field!": str("Field name.") }],
      ["set", "hash fields", "Set one or more fields of a hash (HSET), e.g. properties of a user object.", { ...key, "fields!": obj("Field to value.") }],
      ["get", "hash", "Get all fields and values of a hash (HGETALL).", { ...key }],
      ["delete", "hash fields", "Remove fields from a hash (HDEL).", { ...key, "fields!": arr("Field names.") }],
      ["list", "hash fields", "List the field names of a hash (HKEYS).", { ...key }],
      ["increment", "hash field", "Increment a numeric field of a hash (HINCRBY).", { ...key, "field!": str("Field name."), by: int("Amount (default 1).") }],
      ["push", "list items", "Push values onto the head or tail of a list (LPUSH/RPUSH), e.g. enqueue jobs.", { ...key, "values!": arr("Values to push."), end: en(["left", "right"], "Which end (default right).") }],
      ["pop", "list items", "Remove and return items from the head or tail of a list (LPOP/RPOP).", { ...key, end: en(["left", "right"], "Which end (default left)."), count: int("How many (default 1).") }],
      ["get", "list range", "Get a range of list items by index (LRANGE); 0 to -1 is the whole list.", { ...key, start: int("First index (default 0)."), stop: int("Last index (default -1).") }],
      ["get", "list length", "Get the number of items in a list (LLEN), e.g. a queue's backlog.", { ...key }],
      ["trim", "list", "Keep only a range of a list and drop the rest (LTRIM), e.g. cap a log at 1000 entries.", { ...key, "start!": int("First index to keep."), "stop!": int("Last index to keep.") }],
      ["add", "set members", "Add members to a set (SADD); duplicates are ignored.", { ...key, "members!": arr("Members to add.") }],
      ["remove", "set members", "Remove members from a set (SREM).", { ...key, "members!": arr("Members to remove.") }],
      ["get", "set members", "Get all members of a set (SMEMBERS).", { ...key }],
      ["check", "set membership", "Check whether values are members of a set (SMISMEMBER).", { ...key, "members!": arr("Values to test.") }],
      ["intersect", "sets", "Return the members common to several sets (SINTER), optionally storing them.", { ...keys, "store in": str("Store the result at this key.") }],
      ["union", "sets", "Return the union of several sets (SUNION).", { ...keys, "store in": str("Store the result at this key.") }],
      ["add", "sorted set members", "Add members with scores to a sorted set (ZADD), e.g. players to a leaderboard.", { ...key, "members!": arr("Members, each {member, score}.", "object"), "only update": bool("XX: only update existing members."), "greater only": bool("GT: only raise scores.") }],
      ["get", "sorted set range", "Get members of a sorted set by rank or score range, optionally highest first with scores (ZRANGE), e.g. the top 10.", { ...key, start: str("Start rank or score (default 0)."), stop: str("Stop rank or score (default -1)."), "by score": bool("Interpret start/stop as scores."), reverse: bool("Highest first."), "with scores": bool("Include scores."), limit: int("Maximum members.") }],
      ["remove", "sorted set members", "Remove members from a sorted set (ZREM).", { ...key, "members!": arr("Members to remove.") }],
      ["get", "member score", "Get the score of a member in a sorted set (ZSCORE).", { ...key, "member!": str("Member.") }],
      ["get", "member rank", "Get the rank of a member in a sorted set, lowest score first or highest first (ZRANK/ZREVRANK).", { ...key, "member!": str("Member."), reverse: bool("Rank from the highest score.") }],
      ["increment", "member score", "Add to the score of a sorted-set member (ZINCRBY).", { ...key, "member!": str("Member."), "by!": num("Amount to add.") }],
      ["add", "stream entry", "Append an entry to a stream (XADD), optionally capping the stream length.", { ...key, "fields!": obj("Field to value."), id: str("Entry ID (default * for auto)."), "max length": int("Trim the stream to about this many entries.") }],
      ["read", "stream", "Read entries from one or more streams after given IDs (XREAD), optionally blocking until data arrives.", { "streams!": obj("Stream key to the last ID seen ($ for only new)."), count: int("Maximum entries per stream."), "block ms": int("Wait up to this long for new entries.") }],
      ["get", "stream range", "Get stream entries between two IDs (XRANGE/XREVRANGE).", { ...key, start: str("Start ID (default -)."), end: str("End ID (default +)."), count: int("Maximum entries."), reverse: bool("Newest first.") }],
      ["create", "consumer group", "Create a consumer group on a stream (XGROUP CREATE) so several workers share its entries.", { ...key, "group!": str("Group name."), "start id": str("Where the group starts reading ($ = new entries only)."), mkstream: bool("Create the stream if missing.") }],
      ["read", "consumer group", "Read entries for a consumer of a group (XREADGROUP); they stay pending until acknowledged.", { ...key, "group!": str("Group name."), "consumer!": str("Consumer name."), count: int("Maximum entries."), "block ms": int("Wait for new entries.") }],
      ["acknowledge", "stream entries", "Acknowledge processed entries of a consumer group (XACK).", { ...key, "group!": str("Group name."), "ids!": arr("Entry IDs.") }],
      ["publish", "message", "Publish a message to a Pub/Sub channel (PUBLISH); returns how many subscribers received it.", { "channel!": str("Channel name."), "message!": str("Message payload.") }],
      ["list", "pubsub channels", "List active Pub/Sub channels and their subscriber counts.", { pattern: str("Only channels matching this glob.") }],
      ["get", "server info", "Get server information and statistics (INFO): version, uptime, memory, clients, persistence, replication, keyspace.", { section: en(["server", "clients", "memory", "persistence", "stats", "replication", "cpu", "keyspace", "all"], "Section (default all).") }],
      ["get", "database size", "Get the number of keys in the current database (DBSIZE).", {}],
      ["get", "memory usage", "Get how many bytes a key and its value use in RAM (MEMORY USAGE).", { ...key }],
      ["get", "slow log", "Get the slow log: recent commands that exceeded the slowlog threshold, with durations and arguments.", { count: int("Number of entries (default 10).") }],
      ["list", "clients", "List connected clients with address, name, age, idle time and current command (CLIENT LIST).", { type: en(["normal", "replica", "pubsub"], "Client type.") }],
      ["get", "config", "Read server configuration parameters (CONFIG GET), e.g. maxmemory or maxmemory-policy.", { "pattern!": str("Parameter name or glob.") }],
      ["flush", "database", "Delete all keys of the current database (FLUSHDB). Irreversible.", { "confirm!": bool("Must be true."), async: bool("Free memory in the background.") }],
      ["run", "lua script", "Run a Lua script atomically on the server (EVAL) with keys and arguments.", { "script!": str("Lua source."), keys: arr("Keys the script touches (KEYS[])."), args: arr("Arguments (ARGV[]).") }],
      ["get", "json", "Get a JSON document or a JSONPath inside it (JSON.GET).", { ...key, path: str("JSONPath (default $).") }],
      ["set", "json", "Set a JSON document or the value at a JSONPath (JSON.SET).", { ...key, "value!": str("JSON text."), path: str("JSONPath (default $).") }],
    ],
  };
}

function crm() {
  const owner = str("User ID of the record owner.");
  const relType = en(["contact", "company", "deal", "lead"], "Type of the record it relates to.");
  return {
    titles: true,
    where: "in the CRM",
    paging: {
      limit: int("Maximum records per page (default 25, max 100)."),
      after: str("Paging cursor returned as 'next' by the previous call."),
    },
    searchLimit: { limit: int("Maximum records to return (default 10).") },
    resources: [
      {
        n: "contact",
        id: { "contact id!": str("ID of the contact.") },
        what: "Contacts are the people you sell to or work with.",
        fields: {
          "email!": str("Primary email address."),
          "first name": str("Given name."),
          "last name": str("Family name."),
          phone: str("Phone number in E.164 format."),
          "job title": str("Job title."),
          "company id": str("Company the contact works for."),
          "lifecycle stage": en(["subscriber", "lead", "opportunity", "customer", "evangelist"], "Marketing/sales stage."),
          "owner id": owner,
        },
        filters: { "company id": str("Only contacts of this company."), "owner id": owner, "lifecycle stage": str("Only contacts in this stage."), "updated after": str("Only contacts changed after this ISO 8601 time.") },
        searchIn: "name, email address, phone number and company name",
        returns: "name, email, phone, company, owner, lifecycle stage and recent activity",
        verbs: "lgcuds",
        notes: { c: "Creating a contact with an email that already exists fails with a conflict." },
        custom: [
          { v: "merge", pl: true, noId: true, d: "Merge two duplicate contacts: the secondary's activities, deals and notes move to the primary, which keeps its own property values where both are set.", p: { "primary id!": str("Contact to keep."), "secondary id!": str("Contact merged into it and removed.") } },
        ],
      },
      {
        n: "company",
        pl: "companies",
        id: { "company id!": str("ID of the company.") },
        what: "Companies are the organizations your contacts belong to.",
        fields: {
          "name!": str("Company name."),
          domain: str("Website domain, e.g. acme.com; used to auto-associate contacts."),
          industry: str("Industry."),
          "employee count": int("Number of employees."),
          "annual revenue": num("Annual revenue in the account currency."),
          city: str("City."),
          country: str("Country (ISO 3166 alpha-2)."),
        },
        filters: { industry: str("Only this industry."), "owner id": owner, country: str("Only companies in this country.") },
        searchIn: "name, domain and city",
        verbs: "lgcuds",
      },
      {
        n: "deal",
        id: { "deal id!": str("ID of the deal.") },
        what: "Deals are sales opportunities moving through a pipeline's stages.",
        fields: {
          "name!": str("Deal name."),
          amount: num("Deal value."),
          currency: str("ISO 4217 currency code (default: account currency)."),
          "pipeline id": str("Pipeline (default: the default pipeline)."),
          "stage id": str("Current stage in the pipeline."),
          "close date": str("Expected close date (YYYY-MM-DD)."),
          "company id": str("Associated company."),
          "owner id": owner,
        },
        filters: { "pipeline id": str("Only deals in this pipeline."), "stage id": str("Only deals in this stage."), "owner id": owner, "closing before": str("Only deals expected to close before this date.") },
        searchIn: "deal name, company and contact names",
        verbs: "lgcuds",
        custom: [
          { v: "move", o: "to stage", d: "Move a deal to another stage of its pipeline, e.g. from Proposal to Negotiation; the stage change is recorded in its history.", p: { "stage id!": str("Target stage ID.") } },
          { v: "close", d: "Close a deal as won or lost, with an optional reason; it leaves the open pipeline views.", p: { "outcome!": en(["won", "lost"], "How the deal ended."), reason: str("Why it was won or lost.") } },
        ],
      },
      {
        n: "lead",
        id: { "lead id!": str("ID of the lead.") },
        what: "Leads are unqualified prospects captured from forms, imports or events.",
        fields: {
          "email!": str("Email address."),
          name: str("Full name."),
          company: str("Company name as given."),
          source: en(["web form", "event", "referral", "import", "ads"], "Where the lead came from."),
          status: en(["new", "contacted", "qualified", "unqualified"], "Qualification status."),
        },
        filters: { status: str("Only leads with this status."), source: str("Only leads from this source.") },
        verbs: "lgcud",
        custom: [
          { v: "convert", d: "Convert a qualified lead into a contact, creating or matching a company and optionally opening a deal.", p: { "create deal": bool("Also create a deal."), "deal name": str("Name of the deal to create."), "deal amount": num("Value of the deal.") } },
        ],
      },
      {
        n: "task",
        id: { "task id!": str("ID of the task.") },
        what: "Tasks are follow-up to-dos for sales reps, optionally tied to a record.",
        fields: {
          "subject!": str("What needs doing."),
          "due date": str("Due date and time (ISO 8601)."),
          priority: en(["low", "medium", "high"], "Priority."),
          status: en(["not started", "in progress", "completed"], "Task status."),
          "owner id": owner,
          "related to type": relType,
          "related to id": str("ID of the related record."),
        },
        filters: { "owner id": owner, status: str("Only tasks in this status."), "due before": str("Only tasks due before this date.") },
        verbs: "lgcud",
        custom: [{ v: "complete", d: "Mark a task as completed and stamp the completion time." }],
      },
      {
        n: "note",
        id: { "note id!": str("ID of the note.") },
        what: "Notes are free-text remarks pinned to a contact, company or deal timeline.",
        fields: { "body!": str("Note text (basic Markdown)."), "related to type!": relType, "related to id!": str("ID of the related record.") },
        filters: { "related to type": relType, "related to id": str("Only notes on this record.") },
        verbs: "lcd",
      },
      {
        n: "call",
        id: { "call id!": str("ID of the call.") },
        what: "Calls are logged phone conversations on a contact's timeline.",
        fields: {
          "contact id!": str("Contact who was called."),
          direction: en(["inbound", "outbound"], "Who initiated the call."),
          "duration seconds": int("Length of the call."),
          outcome: en(["connected", "left voicemail", "no answer", "wrong number"], "Result of the call."),
          notes: str("What was discussed."),
        },
        filters: { "contact id": str("Only calls with this contact."), "after": str("Only calls after this time.") },
        verbs: "lc",
        verbNames: { c: "log" },
      },
      {
        n: "meeting",
        id: { "meeting id!": str("ID of the meeting.") },
        what: "Meetings are scheduled or past appointments with contacts.",
        fields: {
          "title!": str("Meeting title."),
          "start time!": str("Start (ISO 8601)."),
          "end time": str("End (ISO 8601)."),
          "attendee contact ids": arr("Contacts attending."),
          location: str("Place or video link."),
          agenda: str("Agenda or notes."),
        },
        verbs: "lgcd",
      },
      {
        n: "pipeline",
        id: { "pipeline id!": str("ID of the pipeline.") },
        returns: "stages in order with their win probabilities",
        desc: { l: "List the sales pipelines and their stages (e.g. Qualification, Proposal, Negotiation, Closed Won)." },
        verbs: "lg",
      },
      {
        n: "product",
        id: { "product id!": str("ID of the product.") },
        what: "Products are the catalog items used as line items on deals and quotes.",
        fields: {
          "name!": str("Product name."),
          "unit price!": num("Price per unit."),
          sku: str("Stock keeping unit."),
          currency: str("Currency code."),
          description: str("Description."),
        },
        verbs: "lgcud",
      },
      {
        n: "quote",
        id: { "quote id!": str("ID of the quote.") },
        what: "Quotes are priced offers built from a deal's line items.",
        fields: {
          "deal id!": str("Deal the quote belongs to."),
          "line items!": arr("Items, each {product id, quantity, discount percent}.", "object"),
          "expiration date": str("Date the offer expires."),
          terms: str("Terms and conditions text."),
        },
        verbs: "lgc",
        custom: [{ v: "send", d: "Email a quote to the customer as a PDF with a link to accept it online.", p: { "recipient email!": str("Where to send it."), message: str("Cover message.") } }],
      },
      {
        n: "owner",
        id: { "owner id!": str("ID of the user.") },
        returns: "name, email, team and whether the user is active",
        desc: { l: "List the CRM users who can own records, with their teams." },
        verbs: "lg",
      },
      {
        n: "email",
        id: { "email id!": str("ID of the logged email.") },
        what: "Logged emails are messages exchanged with a contact, recorded on their timeline.",
        fields: { "contact id!": str("Contact the email was exchanged with."), "subject!": str("Subject."), body: str("Body text."), direction: en(["sent", "received"], "Direction."), "sent at": str("When it was sent (ISO 8601).") },
        filters: { "contact id": str("Only emails with this contact.") },
        verbs: "lc",
        verbNames: { c: "log" },
      },
    ],
    tools: [
      ["search", "records", "Search every kind of CRM record at once (contacts, companies, deals, leads) and return the best matches of each type.", { "query!": str("Name, email, domain or keyword."), types: arr("Limit to these record types."), limit: int("Matches per type (default 5).") }],
      ["create", "association", "Link two records, e.g. associate a contact with a deal or a company.", { "from type!": relType, "from id!": str("ID of the first record."), "to type!": relType, "to id!": str("ID of the second record."), label: str("Association label, e.g. 'decision maker'.") }],
      ["list", "associations", "List the records associated with a record, e.g. all contacts on a deal.", { "from type!": relType, "from id!": str("ID of the record."), "to type!": relType }],
      ["get", "pipeline report", "Summarize a pipeline: deal count and total value per stage, weighted forecast and win rate over a period.", { "pipeline id": str("Pipeline (default: the default one)."), "period start": str("Start date."), "period end": str("End date."), "owner id": owner }],
      ["list", "sequences", "List the automated email sequences (cadences) reps can enroll contacts in.", {}],
      ["enroll", "in sequence", "Enroll a contact in an automated email sequence sent on behalf of a rep.", { "contact id!": str("Contact to enroll."), "sequence id!": str("Sequence ID."), "sender email": str("Rep mailbox to send from.") }],
      ["import", "contacts", "Import contacts from CSV text, matching existing records by email.", { "csv!": str("CSV with a header row; columns map to contact properties."), "update existing": bool("Update contacts that already exist.") }],
    ],
  };
}

function helpdesk() {
  const ticketId = { "ticket id!": int("ID of the ticket.") };
  const status = en(["new", "open", "pending", "on-hold", "solved", "closed"], "Ticket status.");
  const priority = en(["low", "normal", "high", "urgent"], "Priority.");
  return {
    paging: { page: int("Page number (default 1)."), "per page": int("Results per page (default 25, max 100).") },
    resources: [
      {
        n: "ticket",
        id: ticketId,
        what: "Tickets are customer support requests, answered by agents through public replies and internal notes.",
        fields: {
          "subject!": str("Short summary of the request."),
          "description!": str("The customer's first message."),
          "requester email!": str("Email of the customer; a customer record is created if needed."),
          priority,
          type: en(["question", "incident", "problem", "task"], "Ticket type."),
          tags: arr("Tags."),
          "group id": int("Group (team) to route the ticket to."),
          "assignee id": int("Agent to assign."),
        },
        ufields: { subject: str("New subject."), status, priority, type: en(["question", "incident", "problem", "task"], "Ticket type."), tags: arr("Replaces all tags."), "group id": int("Group."), "assignee id": int("Agent."), "custom fields": obj("Custom field values by field ID.") },
        filters: { status, priority, "assignee id": int("Only tickets of this agent."), "requester id": int("Only tickets of this customer."), tag: str("Only tickets with this tag."), "updated since": str("ISO 8601 time.") },
        searchIn: "subject, description, comments and requester",
        returns: "subject, status, priority, requester, assignee, tags, SLA deadlines and satisfaction rating",
        verbs: "lgcuds",
        notes: { d: "Deleted tickets can be restored for 30 days.", s: "Supports field filters like status:pending priority>normal." },
        custom: [
          { v: "list", o: "audits", d: "List the audit trail of a ticket: every change of status, assignee, tags and fields, and which rule or agent made it." },
          { v: "get", o: "metrics", d: "Get a ticket's metrics: first reply time, full resolution time, reopens and agent wait time." },
          { v: "assign", d: "Assign a ticket to an agent and/or a group.", p: { "assignee id": int("Agent ID."), "group id": int("Group ID.") } },
          { v: "reply to", d: "Send a public reply to the customer on a ticket; it is emailed to the requester. Optionally change the status in the same step.", p: { "body!": str("Reply text (Markdown)."), status, attachments: arr("Upload tokens of attachments.") } },
          { v: "add", o: "internal note", d: "Add a private note to a ticket that only agents can see.", p: { "body!": str("Note text.") } },
          { v: "list", o: "comments", d: "List the conversation of a ticket: public replies and internal notes, oldest first, with authors." },
          { v: "add", o: "tags", d: "Add tags to a ticket, keeping the existing ones.", p: { "tags!": arr("Tags to add.") } },
          { v: "merge", pl: true, noId: true, d: "Merge duplicate tickets into a target ticket; the sources are closed and their comments are copied over.", p: { "target ticket id!": int("Ticket to keep."), "source ticket ids!": arr("Tickets to merge into it.", "integer") } },
          { v: "apply macro to", d: "Apply a macro (canned response and field changes) to a ticket.", p: { "macro id!": int("Macro ID.") } },
        ],
      },
      {
        n: "customer",
        id: { "customer id!": int("ID of the customer (end user).") },
        what: "Customers are the end users who open tickets.",
        fields: { "email!": str("Email address."), name: str("Full name."), phone: str("Phone number."), "organization id": int("Organization they belong to."), notes: str("Notes visible to agents.") },
        filters: { "organization id": int("Only customers of this organization.") },
        searchIn: "name, email and phone",
        verbs: "lgcuds",
      },
      {
        n: "organization",
        id: { "organization id!": int("ID of the organization.") },
        what: "Organizations group customers from the same company, with shared tickets.",
        fields: { "name!": str("Organization name."), domains: arr("Email domains that auto-add customers."), notes: str("Notes."), tags: arr("Tags.") },
        verbs: "lgcud",
      },
      {
        n: "agent",
        id: { "agent id!": int("ID of the agent.") },
        filters: { "group id": int("Only members of this group."), available: bool("Only agents currently online.") },
        returns: "name, email, role, groups and availability",
        desc: { l: "List the support agents, their roles and which groups they belong to." },
        verbs: "lg",
      },
      {
        n: "group",
        desc: { l: "List the agent groups (teams) tickets can be routed to, e.g. Billing or Tier 2." },
        verbs: "l",
      },
      {
        n: "macro",
        returns: "title, the reply text it adds and the field changes it applies",
        id: { "macro id!": int("ID of the macro.") },
        what: "Macros are canned responses with field changes that agents apply in one click.",
        filters: { active: bool("Only active macros."), category: str("Macro category.") },
        verbs: "lg",
      },
      {
        n: "view",
        returns: "title, conditions, columns and sort order",
        id: { "view id!": int("ID of the view.") },
        what: "Views are saved ticket lists such as 'My unsolved tickets'.",
        verbs: "lg",
        custom: [{ v: "run", d: "Run a view and return the tickets currently in it.", p: { "sort by": str("Field to sort by."), page: int("Page number.") } }],
      },
      {
        n: "sla policy",
        label: "SLA policy",
        plLabel: "SLA policies",
        pl: "sla policies",
        id: { "policy id!": int("ID of the SLA policy.") },
        returns: "conditions and first-reply and resolution targets per priority",
        desc: { l: "List the SLA policies: which tickets they apply to and their first-reply and resolution time targets." },
        verbs: "lg",
      },
      {
        n: "satisfaction rating",
        desc: { l: "List customer satisfaction (CSAT) ratings with scores, comments and the tickets they belong to." },
        filters: { score: en(["good", "bad"], "Only this score."), "start time": str("ISO 8601 time.") },
        verbs: "l",
      },
      {
        n: "article",
        id: { "article id!": int("ID of the article.") },
        what: "Help center articles are self-service answers published for customers.",
        fields: { "title!": str("Article title."), "body!": str("Article body in HTML."), "section id!": int("Help center section."), draft: bool("Save as a draft."), labels: arr("Search labels.") },
        ufields: { title: str("New title."), body: str("New body."), draft: bool("Draft flag."), labels: arr("Labels.") },
        searchIn: "title, body and labels",
        verbs: "lgcuds",
      },
      {
        n: "trigger",
        id: { "trigger id!": int("ID of the trigger.") },
        what: "Triggers are business rules that act on tickets when they are created or updated, e.g. auto-assign urgent tickets.",
        fields: { "title!": str("Trigger name."), "conditions!": obj("all/any condition lists on ticket fields."), "actions!": arr("Actions, each {field, value}, e.g. set group or send email.", "object"), active: bool("Whether the trigger runs.") },
        verbs: "lgcud",
      },
      {
        n: "ticket field",
        id: { "field id!": int("ID of the ticket field.") },
        what: "Ticket fields are the custom fields agents and customers fill in, such as product or order number.",
        fields: { "title!": str("Field label."), "type!": en(["text", "textarea", "dropdown", "checkbox", "date", "integer", "decimal"], "Field type."), options: arr("Choices for dropdown fields."), required: bool("Required to solve the ticket.") },
        verbs: "lc",
      },
    ],
  };
}

function drive() {
  const fileId = { "file id!": str("ID of the file or folder.") };
  return {
    titles: true,
    where: "in the drive",
    paging: { "page size": int("Maximum items per page (default 100)."), "page token": str("Token from the previous page.") },
    resources: [
      {
        n: "file",
        id: fileId,
        what: "Files are documents, spreadsheets, images, PDFs and any other uploaded content.",
        filters: {
          "folder id": str("Only items directly in this folder."),
          "mime type": str("Only this type, e.g. application/pdf."),
          "owner email": str("Only files owned by this person."),
          "modified after": str("ISO 8601 time."),
          starred: bool("Only starred files."),
          trashed: bool("Only files in the trash."),
        },
        returns: "name, MIME type, size, owners, parent folders, sharing status, modification time and links",
        searchIn: "file names and the full text of documents",
        sfilters: { "mime type": str("Only this type.") },
        verbs: "lgds",
        notes: { d: "Skips the trash; use trash-file for a recoverable delete." },
        custom: [
          { v: "lock", d: "Make a file read-only for everyone (content restriction), or unlock it.", p: { "locked!": bool("Lock (true) or unlock (false)."), reason: str("Reason shown to others.") } },
          { v: "get", o: "activity", d: "Get the recent activity on a file: who viewed, edited, commented, renamed, moved or shared it, and when." },
          { v: "upload", noId: true, d: "Upload a new file into a folder, optionally converting it to an editable document format.", p: { "name!": str("File name."), "content!": str("Content: text, or base64 for binary."), base64: bool("Content is base64-encoded."), "mime type": str("MIME type."), "parent folder id": str("Folder to put it in (default: root)."), convert: bool("Convert Office files to native documents.") } },
          { v: "download", d: "Download a file's content (text, or base64 for binary files).", p: { "as text": bool("Decode as UTF-8.") } },
          { v: "export", d: "Export a native document, spreadsheet or presentation to another format such as PDF, DOCX, XLSX or CSV.", p: { "mime type!": str("Target MIME type.") } },
          { v: "update", o: "content", d: "Replace a file's content with a new version, keeping its ID and sharing.", p: { "content!": str("New content."), base64: bool("Content is base64.") } },
          { v: "rename", d: "Rename a file or folder.", p: { "name!": str("New name.") } },
          { v: "move", d: "Move a file or folder into another folder.", p: { "destination folder id!": str("Target folder.") } },
          { v: "copy", d: "Make a copy of a file.", p: { name: str("Name of the copy."), "destination folder id": str("Folder for the copy.") } },
          { v: "trash", d: "Move a file or folder to the trash; it can be restored for 30 days." },
          { v: "restore", d: "Restore a file or folder from the trash." },
          { v: "star", d: "Star or unstar a file.", p: { "starred!": bool("Star (true) or unstar (false).") } },
          { v: "create", o: "shortcut", d: "Create a shortcut to a file in another folder.", p: { "parent folder id!": str("Where to put the shortcut.") } },
        ],
      },
      {
        n: "folder",
        id: { "folder id!": str("ID of the folder.") },
        fields: { "name!": str("Folder name."), "parent folder id": str("Parent folder (default: root)."), color: str("Folder color.") },
        what: "Folders organize files; a file can live in one folder.",
        verbs: "c",
        custom: [{ v: "list", o: "contents", d: "List the files and subfolders directly inside a folder, folders first.", p: { "order by": en(["name", "modifiedTime", "folder,name"], "Ordering.") } }],
      },
      {
        n: "permission",
        where: "on a file",
        parent: fileId,
        id: { "permission id!": str("ID of the permission.") },
        what: "Permissions say who can read, comment on or edit a file.",
        ufields: { "role!": en(["reader", "commenter", "writer", "organizer"], "New role."), "expiration time": str("When access ends.") },
        verbs: "lud",
        verbNames: { d: "revoke" },
        desc: { l: "List who has access to a file or folder and with which role (owner, writer, commenter, reader), including link sharing.", d: "Revoke someone's access to a file or folder." },
      },
      {
        n: "comment",
        where: "on a file",
        parent: fileId,
        id: { "comment id!": str("ID of the comment.") },
        what: "Comments are discussion threads on a file, optionally anchored to a passage.",
        fields: { "content!": str("Comment text."), "quoted text": str("Passage of the document the comment refers to.") },
        filters: { "include resolved": bool("Also list resolved comments.") },
        verbs: "lcd",
        custom: [
          { v: "reply to", d: "Reply to a comment thread on a file.", p: { "content!": str("Reply text.") } },
          { v: "resolve", d: "Mark a comment thread as resolved." },
        ],
      },
      {
        n: "revision",
        where: "of a file",
        parent: fileId,
        id: { "revision id!": str("ID of the revision.") },
        what: "Revisions are the saved versions of a file's content.",
        returns: "modification time, the user who made it, size and whether it is kept forever",
        verbs: "lg",
        custom: [{ v: "restore", d: "Restore a file to an earlier revision; the current content becomes a revision itself." }],
      },
      {
        n: "shared drive",
        id: { "drive id!": str("ID of the shared drive.") },
        what: "Shared drives belong to a team rather than a person, so files stay when people leave.",
        fields: { "name!": str("Shared drive name.") },
        verbs: "lcd",
        notes: { d: "The shared drive must be empty." },
      },
    ],
    tools: [
      ["share", "file", "Share a file or folder with a person or group by email, as reader, commenter or writer, and optionally notify them.", { ...fileId, "email!": str("Email address of the person or group."), "role!": en(["reader", "commenter", "writer"], "Access level."), notify: bool("Send a notification email (default true)."), message: str("Message in the notification.") }],
      ["create", "share link", "Turn on link sharing for a file and return the link: anyone with it (or anyone in the domain) can view, comment or edit.", { ...fileId, role: en(["reader", "commenter", "writer"], "Access for people with the link (default reader)."), audience: en(["anyone", "domain"], "Who can use the link.") }],
      ["transfer", "ownership", "Make another user the owner of a file.", { ...fileId, "new owner email!": str("Email of the new owner.") }],
      ["get", "storage quota", "Get used and total storage, split between drive, mail and photos, and the space used by trash.", {}],
      ["list", "recent files", "List the files the user opened or edited most recently.", { "page size": int("Maximum files (default 20).") }],
      ["list", "changes", "List changes to files (created, modified, removed) since a page token, to sync a local copy.", { "page token!": str("Start token from get-start-page-token or the previous call.") }],
      ["get", "start page token", "Get the token marking 'now' for list-changes.", {}],
      ["empty", "trash", "Permanently delete every file in the trash.", {}],
      ["list", "shared with me", "List files and folders other people have shared with the user.", { "page size": int("Maximum items.") }],
    ],
  };
}

function vault() {
  const mount = (def) => ({ mount: str(`Mount path of the engine (default '${def}').`) });
  const path = { "path!": str("Secret path under the mount, e.g. apps/billing/db.") };
  const kv = mount("secret");
  const transit = mount("transit");
  const pki = mount("pki");
  const keyName = { "key name!": str("Name of the transit key.") };
  return {
    tools: [
      ["read", "secret", "Read the key/value data of a secret at a path (KV v2), the latest version or a given one.", { ...kv, ...path, version: int("Version to read (default latest).") }],
      ["write", "secret", "Write key/value data to a secret, creating a new version. With cas, the write only succeeds if the current version matches.", { ...kv, ...path, "data!": obj("Key/value pairs to store (replaces the whole secret)."), cas: int("Check-and-set: expected current version (0 = only if absent).") }],
      ["patch", "secret", "Update some keys of a secret, keeping the others, as a new version.", { ...kv, ...path, "data!": obj("Keys to add or change.") }],
      ["list", "secrets", "List the secret names and folders under a path (folders end with /).", { ...kv, path: str("Folder to list (default the root).") }],
      ["delete", "secret", "Soft-delete the latest version (or given versions) of a secret; data can be recovered with undelete-secret.", { ...kv, ...path, versions: arr("Versions to delete (default latest).", "integer") }],
      ["undelete", "secret", "Recover soft-deleted versions of a secret.", { ...kv, ...path, "versions!": arr("Versions to recover.", "integer") }],
      ["destroy", "secret versions", "Permanently destroy versions of a secret; their data cannot be recovered.", { ...kv, ...path, "versions!": arr("Versions to destroy.", "integer") }],
      ["get", "secret metadata", "Get a secret's metadata: all versions with creation and deletion times, max versions and custom metadata.", { ...kv, ...path }],
      ["update", "secret metadata", "Change how many versions a secret keeps, require check-and-set, or auto-delete versions after a duration.", { ...kv, ...path, "max versions": int("Versions to keep."), "cas required": bool("Require cas on writes."), "delete version after": str("Duration, e.g. 720h."), "custom metadata": obj("Free-form metadata.") }],
      ["create", "encryption key", "Create a named key in the transit engine for encryption as a service; the key never leaves Vault.", { ...transit, ...keyName, type: en(["aes256-gcm96", "chacha20-poly1305", "rsa-2048", "rsa-4096", "ecdsa-p256", "ed25519"], "Key type (default aes256-gcm96)."), exportable: bool("Allow exporting the key.") }],
      ["list", "encryption keys", "List the named keys of the transit engine.", { ...transit }],
      ["rotate", "encryption key", "Rotate a transit key to a new version; old versions can still decrypt until their min decryption version is raised.", { ...transit, ...keyName }],
      ["encrypt", "data", "Encrypt base64 plaintext with a transit key and return a vault:v1:... ciphertext.", { ...transit, ...keyName, "plaintext!": str("Base64-encoded plaintext."), context: str("Base64 context for derived keys.") }],
      ["decrypt", "data", "Decrypt a transit ciphertext and return the base64 plaintext.", { ...transit, ...keyName, "ciphertext!": str("Ciphertext, vault:v1:...") }],
      ["rewrap", "data", "Re-encrypt a ciphertext with the latest version of its key without exposing the plaintext, after a rotation.", { ...transit, ...keyName, "ciphertext!": str("Ciphertext to rewrap.") }],
      ["sign", "data", "Sign data with an asymmetric transit key and return the signature.", { ...transit, ...keyName, "input!": str("Base64 data to sign."), "hash algorithm": en(["sha2-256", "sha2-512"], "Hash algorithm.") }],
      ["verify", "signature", "Verify a signature made by a transit key.", { ...transit, ...keyName, "input!": str("Base64 data."), "signature!": str("Signature to check.") }],
      ["generate", "random bytes", "Generate cryptographically secure random bytes, e.g. for a password or key.", { "bytes!": int("Number of bytes."), format: en(["base64", "hex"], "Encoding (default base64).") }],
      ["issue", "certificate", "Issue a TLS certificate and private key from a PKI role, e.g. for a service's host name.", { ...pki, "role!": str("PKI role that sets allowed domains and TTLs."), "common name!": str("Common name, e.g. api.internal.example.com."), "alt names": arr("Subject alternative names."), ttl: str("Validity, e.g. 720h.") }],
      ["sign", "certificate request", "Sign a certificate signing request (CSR) with a PKI role; the private key stays with the requester.", { ...pki, "role!": str("PKI role."), "csr!": str("PEM-encoded CSR."), ttl: str("Validity.") }],
      ["revoke", "certificate", "Revoke a certificate by serial number; it is added to the CRL.", { ...pki, "serial number!": str("Serial, colon- or hyphen-separated hex.") }],
      ["list", "certificates", "List the serial numbers of certificates issued by a PKI mount.", { ...pki }],
      ["get", "ca certificate", "Get the PEM CA certificate (and chain) of a PKI mount, to configure clients to trust it.", { ...pki, chain: bool("Include the full chain.") }],
      ["generate", "database credentials", "Generate short-lived database credentials from a role of the database secrets engine; they are revoked when the lease expires.", { ...mount("database"), "role!": str("Database role, e.g. readonly.") }],
      ["list", "database roles", "List the roles of the database secrets engine with their database and default TTLs.", { ...mount("database") }],
      ["rotate", "root credentials", "Rotate the root credentials Vault uses to connect to a database; only Vault knows the new password.", { ...mount("database"), "connection!": str("Name of the database connection.") }],
      ["list", "policies", "List the ACL policy names.", {}],
      ["read", "policy", "Read the HCL rules of an ACL policy.", { "name!": str("Policy name.") }],
      ["write", "policy", "Create or replace an ACL policy from HCL rules that grant capabilities on paths.", { "name!": str("Policy name."), "policy!": str("HCL, e.g. path \"secret/data/app/*\" { capabilities = [\"read\"] }.") }],
      ["delete", "policy", "Delete an ACL policy; tokens that had it lose its permissions.", { "name!": str("Policy name.") }],
      ["create", "token", "Create a token with policies and a TTL, e.g. for a CI job.", { policies: arr("Policies to attach."), ttl: str("Lifetime, e.g. 1h."), renewable: bool("Allow renewal."), "display name": str("Name shown in audit logs."), "num uses": int("Limit the number of uses.") }],
      ["lookup", "token", "Look up a token (or the caller's own) to see its policies, TTL, creation time and metadata.", { token: str("Token to inspect (default: self)."), accessor: str("Look up by accessor instead.") }],
      ["renew", "token", "Extend the TTL of a renewable token.", { token: str("Token (default: self)."), increment: str("Requested extension, e.g. 1h.") }],
      ["revoke", "token", "Revoke a token and all its child tokens and leases.", { "token!": str("Token or accessor to revoke.") }],
      ["lookup", "lease", "Look up a lease (dynamic secret) to see when it expires and whether it is renewable.", { "lease id!": str("Lease ID.") }],
      ["renew", "lease", "Renew a lease so its dynamic secret stays valid longer.", { "lease id!": str("Lease ID."), increment: str("Requested extension.") }],
      ["revoke", "lease", "Revoke a lease immediately, invalidating its secret (e.g. deleting the database user).", { "lease id!": str("Lease ID."), prefix: bool("Revoke every lease under this prefix.") }],
      ["get", "seal status", "Check whether Vault is sealed, initialized, and how many unseal key shares are needed.", {}],
      ["list", "secret engines", "List the mounted secrets engines with their paths, types and versions.", {}],
      ["enable", "secret engine", "Mount a new secrets engine at a path.", { "path!": str("Mount path."), "type!": en(["kv-v2", "transit", "pki", "database", "aws", "ssh", "totp"], "Engine type."), description: str("Description.") }],
      ["list", "auth methods", "List the enabled auth methods (token, approle, kubernetes, oidc...).", {}],
      ["list", "audit devices", "List the enabled audit devices and where they log.", {}],
      ["create", "approle", "Create or update an AppRole for machine login, with policies and secret-ID TTLs.", { "role name!": str("Role name."), "token policies": arr("Policies of issued tokens."), "secret id ttl": str("Validity of secret IDs."), "token ttl": str("TTL of issued tokens.") }],
      ["get", "approle role id", "Get the role ID of an AppRole (the non-secret half of its credentials).", { "role name!": str("Role name.") }],
      ["generate", "approle secret id", "Generate a new secret ID for an AppRole, to hand to an application with its role ID.", { "role name!": str("Role name."), metadata: obj("Metadata attached to tokens.") }],
      ["sign", "ssh key", "Sign an SSH public key with an SSH CA role so it can log in to hosts trusting the CA.", { ...mount("ssh"), "role!": str("SSH role."), "public key!": str("OpenSSH public key."), "valid principals": str("Comma-separated user names."), ttl: str("Validity.") }],
      ["generate", "totp code", "Generate the current one-time code for a TOTP key stored in Vault.", { ...mount("totp"), "name!": str("TOTP key name.") }],
      ["generate", "aws credentials", "Generate short-lived AWS access keys from a role of the AWS secrets engine.", { ...mount("aws"), "role!": str("AWS role."), ttl: str("Credential lifetime.") }],
      ["submit", "unseal key", "Submit one unseal key share; Vault unseals when enough shares are given.", { "key!": str("Unseal key share."), reset: bool("Discard the shares submitted so far.") }],
    ],
  };
}

// ---------------------------------------------------------------------------------------------

const SERVERS = {
  github, jira, pg, k8s, weather, fs,
  slack, calendar, stripe, sheets, maps, ci,
  mail, wiki, s3, metrics, dns, browser,
  crm, translate, redis, helpdesk, drive, vault,
};

/** The whole catalog: `{ [serverName]: Tool[] }`, freshly built (plain JSON data) on every call. */
export function catalog() {
  const out = {};
  for (const [name, def] of Object.entries(SERVERS)) out[name] = buildServer(name, def());
  return JSON.parse(JSON.stringify(out));
}
