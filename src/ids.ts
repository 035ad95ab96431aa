/**
 * Every command id, view id, setting name and context key the extension uses, in one place.
 * A unit test checks these against package.json so the manifest and the code cannot drift apart.
 * This module must stay free of the `vscode` import (the unit layer runs in plain Node).
 */
export const Views = {
  container: 'modelAccess',
  models: 'modelAccess.models',
  /** Requests, tokens and cost since the window opened and per day (src/setup/usageView.ts). */
  usage: 'modelAccess.usage',
  /** The registry's models the workspace's code names (src/references/modelsInUse.ts). */
  modelsInUse: 'modelAccess.modelsInUse',
} as const;

export const Commands = {
  // Service URL and key
  setBaseUrl: 'modelAccess.setBaseUrl',
  switchEnvironment: 'modelAccess.switchEnvironment',
  copyEnvironments: 'modelAccess.copyEnvironments',
  /** A guided flow (name, URL, key) that adds an entry to `modelAccess.environments` in the user's settings. */
  addEnvironment: 'modelAccess.addEnvironment',
  /** The same flow for an existing entry: its name and URL (headers and variables stay). */
  editEnvironment: 'modelAccess.editEnvironment',
  /** Stores the value of an environment's secret header (`"{{secret}}"` in the setting) in SecretStorage. */
  setHeaderSecret: 'modelAccess.setHeaderSecret',
  setApiKey: 'modelAccess.setApiKey',
  clearApiKey: 'modelAccess.clearApiKey',
  /** Allows the stored key for a service URL that the workspace's settings chose (asked once per workspace and URL). */
  allowStoredKey: 'modelAccess.allowStoredKey',
  // Models view title bar
  refreshModels: 'modelAccess.refreshModels',
  filterModels: 'modelAccess.filterModels',
  clearFilter: 'modelAccess.clearFilter',
  viewAsGroups: 'modelAccess.viewAsGroups',
  viewAsList: 'modelAccess.viewAsList',
  // Model items (also reachable from the palette with a quick pick)
  openModelCard: 'modelAccess.openModelCard',
  inspectModel: 'modelAccess.inspectModel',
  copyModelId: 'modelAccess.copyModelId',
  showModelDetails: 'modelAccess.showModelDetails',
  previewModelCard: 'modelAccess.previewModelCard',
  /** Two models' cards in the diff editor, and a card's changes since it was last read (src/explorer/cardCompare.ts). */
  compareModelCards: 'modelAccess.compareModelCards',
  showCardChanges: 'modelAccess.showCardChanges',
  /** What changed in the registry since the list was last marked as seen (src/explorer/registryChanges.ts). */
  showRegistryChanges: 'modelAccess.showRegistryChanges',
  markModelsSeen: 'modelAccess.markModelsSeen',
  /** Registered by the scratch-requests feature (src/requests/); the explorer only points at it. */
  newRequest: 'modelAccess.newRequest',
  // Scratch requests (src/requests/)
  sendRequest: 'modelAccess.sendRequest',
  sendToResponses: 'modelAccess.sendToResponses',
  sendToChat: 'modelAccess.sendToChat',
  sendToEmbeddings: 'modelAccess.sendToEmbeddings',
  changeEndpoint: 'modelAccess.changeEndpoint',
  payloadActions: 'modelAccess.payloadActions',
  /** A payload or a model as curl, Python or JavaScript code (src/requests/code/codeCommands.ts). */
  copyAsCode: 'modelAccess.copyAsCode',
  importCurl: 'modelAccess.importCurl',
  openScratchFolder: 'modelAccess.openScratchFolder',
  uploadFile: 'modelAccess.uploadFile',
  showHistory: 'modelAccess.showHistory',
  clearHistory: 'modelAccess.clearHistory',
  toggleResponseHeaders: 'modelAccess.toggleResponseHeaders',
  showRawEvents: 'modelAccess.showRawEvents',
  saveResponseBody: 'modelAccess.saveResponseBody',
  previewResponse: 'modelAccess.previewResponse',
  /** The payload's answer as its Markdown source document, whatever `modelAccess.answers.openAs` says. */
  openAnswerAsText: 'modelAccess.openAnswerAsText',
  /** Sends the active payload to several models at once, side by side (src/requests/compare/compare.ts). */
  compareModels: 'modelAccess.compareModels',
  // Checks (src/checks/): payloads with `// @expect` lines as tests
  runChecks: 'modelAccess.runChecks',
  runChecksOnModels: 'modelAccess.runChecksOnModels',
  saveCheckResults: 'modelAccess.saveCheckResults',
  /** The grid of the last Run Checks on Several Models (src/checks/modelGridPanel.ts). */
  showModelGrid: 'modelAccess.showModelGrid',
  /** Runs the checks whose payloads use a model the registry changed (src/checks/modelFollow.ts). */
  runChecksAffectedByModelChanges: 'modelAccess.runChecksAffectedByModelChanges',
  // Conversations in a payload (src/requests/conversation/conversation.ts)
  reply: 'modelAccess.reply',
  regenerate: 'modelAccess.regenerate',
  forkConversation: 'modelAccess.forkConversation',
  attachFileToConversation: 'modelAccess.attachFileToConversation',
  showConversation: 'modelAccess.showConversation',
  /** Writes an uploaded file's id into a new Responses payload (`input_file`). */
  useFileInNewRequest: 'modelAccess.useFileInNewRequest',
  // Status bar and output
  showModels: 'modelAccess.showModels',
  showLog: 'modelAccess.showLog',
  // Corporate networks: a read-only report of how the service is reached, and the mTLS key's passphrase
  diagnoseConnection: 'modelAccess.diagnoseConnection',
  setClientCertificatePassphrase: 'modelAccess.setClientCertificatePassphrase',
  /** Item click: runs the action chosen by `modelAccess.modelClickAction`. Hidden from the palette. */
  modelClicked: 'modelAccess.modelClicked',
  // Model ids in the workspace's code (src/references/)
  /** Runs a payload's checks on a model and its successor side by side (src/references/trySuccessor.ts). */
  trySuccessor: 'modelAccess.trySuccessor',
  /** Moves every reference to a model to another one, through the refactor preview (hidden from the palette). */
  switchReferences: 'modelAccess.switchReferences',
  rescanReferences: 'modelAccess.rescanReferences',
  // Walkthrough (src/setup/walkthrough.ts)
  openWalkthrough: 'modelAccess.openWalkthrough',
} as const;

/**
 * The walkthrough contributed in package.json (`contributes.walkthroughs`). VS Code knows it as
 * `<publisher>.<name>#<id>`; its steps are completed by the commands and context keys they name.
 */
export const Walkthrough = {
  id: 'gettingStarted',
  steps: ['setServiceUrl', 'setApiKey', 'browseModels', 'openModelCard', 'sendRequest', 'useInChat'],
} as const;

export const Settings = {
  section: 'modelAccess',
  baseUrl: 'baseUrl',
  environments: 'environments',
  groupByFamily: 'groupByFamily',
  rememberModelList: 'rememberModelList',
  /** Every environment as a root of the Models view (and chat models from all of them). */
  showAllEnvironments: 'modelsView.showAllEnvironments',
  modelClickAction: 'modelClickAction',
  allowInsecureHttp: 'allowInsecureHttp',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  requestTemplates: 'requestTemplates',
  defaultFilePurpose: 'defaultFilePurpose',
  responseInNewTab: 'responseInNewTab',
  /** `panel` (the rendered answer: conversation panel, embeddings picture) or `text` (the Markdown source). */
  answersOpenAs: 'answers.openAs',
  // Conversations (src/requests/conversation/conversation.ts)
  conversationPreviousResponseId: 'conversation.previousResponseId',
  maxAttachmentMegabytes: 'conversation.maxAttachmentMegabytes',
  // Limits on what accumulates (streams, lists)
  maxResponseMegabytes: 'limits.maxResponseMegabytes',
  maxModels: 'limits.maxModels',
  maxListMegabytes: 'limits.maxListMegabytes',
  // TLS: extra roots and a client certificate
  tlsCaCertificates: 'tls.caCertificates',
  tlsClientCertificate: 'tls.clientCertificate',
  // Language Model Chat Provider (src/chat/)
  chatEnabled: 'chat.enabled',
  chatModels: 'chat.models',
  chatDefaultMaxInputTokens: 'chat.defaultMaxInputTokens',
  chatDefaultMaxOutputTokens: 'chat.defaultMaxOutputTokens',
  // Checks (src/checks/)
  checksConcurrency: 'checks.concurrency',
  checksMaxRows: 'checks.maxRows',
  checksGraders: 'checks.graders',
  /** Prices per model that override or fill the registry's (read by src/domain/cost/prices.ts). */
  prices: 'prices',
  // Model ids in the workspace's code (src/references/)
  referencesInclude: 'references.include',
  referencesExclude: 'references.exclude',
  referencesWarnDays: 'references.warnDays',
} as const;

/** The `vendor` of the chat models this extension contributes (`languageModelChatProviders` in package.json). */
export const ChatVendor = 'model-access';

/** Context keys set with `setContext`, used in `when` clauses of menus and `viewsWelcome`. */
export const ContextKeys = {
  /** `needsUrl` | `needsKey` | `ready` — drives the Models view's welcome content. */
  setup: 'modelAccess.setup',
  /** true when more than one environment is configured (the Models view offers Switch Environment). */
  multipleEnvironments: 'modelAccess.multipleEnvironments',
  /** `idle` | `loading` | `ready` | `empty` | `error` */
  catalogState: 'modelAccess.catalogState',
  /** true when the Models view groups by family (chooses which toggle icon shows). */
  grouped: 'modelAccess.grouped',
  /** true while the Models view marks registry changes since the list was last seen. */
  registryChanged: 'modelAccess.registryChanged',
  /** true while a text filter narrows the Models view. */
  filtered: 'modelAccess.filtered',
  /** `resourcePath` of every open payload (src/domain/payload/kind.ts): `resourcePath in modelAccess.payloads`. */
  payloads: 'modelAccess.payloads',
  /** The walkthrough's goals reached (platform/firstSteps.ts), each true once reached: its steps' completionEvents. */
  walkthroughConnected: 'modelAccess.walkthrough.connected',
  walkthroughKeySet: 'modelAccess.walkthrough.keySet',
  walkthroughBrowsed: 'modelAccess.walkthrough.browsed',
  walkthroughCardOpened: 'modelAccess.walkthrough.cardOpened',
} as const;

/** `contextValue`s of tree items; menus match them with `viewItem =~ /^model/` etc. */
export const ItemContext = {
  model: 'model',
  modelWithCard: 'modelWithCard',
  family: 'family',
  message: 'message',
  /** A model in Models in Use (src/references/modelsInUse.ts). */
  usedModel: 'usedModel',
  reference: 'reference',
} as const;

/** Values of `modelAccess.answers.openAs`, the default first. */
export const AnswerOpenAs = ['panel', 'text'] as const;
export type AnswerOpenAs = (typeof AnswerOpenAs)[number];

export const ModelClickActions = ['openModelCard', 'showDetails', 'inspect', 'none'] as const;
export type ModelClickAction = (typeof ModelClickActions)[number];

/** VS Code's own commands the extension runs. */
export const BuiltinCommands = {
  setContext: 'setContext',
  openSettings: 'workbench.action.openSettings',
  openWalkthrough: 'workbench.action.openWalkthrough',
  /** Hides the notification toasts (they stay in the notification center). */
  hideToasts: 'notifications.hideToasts',
  openFolder: 'vscode.openFolder',
  showMarkdownPreview: 'markdown.showPreview',
  /** The built-in Markdown extension's renderer: the engine, plugins and settings its preview uses. */
  renderMarkdown: 'markdown.api.render',
  /** Two documents in the diff editor. */
  diff: 'vscode.diff',
} as const;
