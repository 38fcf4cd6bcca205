-- Neovim as a language client for kube-gc-lens-server, driven headless by test/editors/neovim.test.ts:
--
--   nvim --headless --clean -n -u test/editors/nvim/init.lua
--
-- Only Neovim's built-in LSP client is used (no plugin, no VS Code code). The scenario comes from the test as JSON
-- in $KGL_SCENARIO; the result is written as JSON to $KGL_OUT after every step, so a failure (or a kill on the
-- test's deadline) still shows how far the editor got. Waits poll a condition with vim.wait (never a fixed sleep).
--
-- $KGL_SCENARIO:
--   server     absolute path of dist/server.js (started as `node <server> --stdio`)
--   workspace  the workspace folder (root_dir)
--   file       the YAML file to open, relative to the workspace
--   timeoutMs  per wait
--   expect     { count = n }: wait until the opened buffer has n diagnostics
--   hover      { line, character } (0-based, UTF-16 = bytes for this ASCII file): textDocument/hover there
--   edit       { line, startCol, endCol, text, before }: nvim_buf_set_text on that range (`before`: the text expected
--              there), then wait until no diagnostic has code `goneCode` and `count` diagnostics remain

local uv = vim.loop
local started = uv.hrtime()
local function ms(since) return math.floor((uv.hrtime() - since) / 1e6) end

local scenario = vim.json.decode(os.getenv('KGL_SCENARIO') or error('KGL_SCENARIO is not set'))
local out_path = os.getenv('KGL_OUT') or error('KGL_OUT is not set')

local version = vim.version()
local result = {
  nvim = string.format('%d.%d.%d', version.major, version.minor, version.patch),
  logPath = vim.lsp.get_log_path(),
  steps = {},
}

local function write()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
end

local function step(name, fn)
  local t = uv.hrtime()
  result.failedStep = name
  write()
  fn()
  table.insert(result.steps, { name = name, ms = ms(t) })
  result.failedStep = nil
  write()
end

-- What the editor holds for a buffer, in vim.diagnostic's terms (0-based lnum and byte col, severity 1 = Error).
local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      code = d.code, severity = d.severity, source = d.source, message = d.message,
    })
  end
  table.sort(list, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return list
end

-- Polls `check` until it holds; on timeout, fails with `what` (the last diagnostics seen are in the output).
local function wait_for(what, check)
  if not vim.wait(scenario.timeoutMs, check, 20) then
    error(string.format('timed out after %d ms waiting for %s', scenario.timeoutMs, what), 0)
  end
end

local function has_code(list, code)
  for _, d in ipairs(list) do
    if d.code == code then return true end
  end
  return false
end

local client_id

local function run()
  vim.o.swapfile = false
  vim.lsp.set_log_level('debug') -- every message in and out, plus the server's stderr, go to logPath
  local server_config = {
    name = 'kube-gc-lens',
    cmd = { 'node', scenario.server, '--stdio' },
    root_dir = scenario.workspace,
  }

  -- A user's configuration: start (or reuse) the server for every YAML buffer. vim.lsp.start exists from 0.8 on
  -- (and still in 0.11+, next to vim.lsp.config/enable); Debian 12 ships 0.7, which only has start_client +
  -- buf_attach_client.
  result.api = vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'yaml',
    callback = function(args)
      if vim.lsp.start then
        client_id = vim.lsp.start(server_config, { bufnr = args.buf })
      else
        client_id = client_id or vim.lsp.start_client(server_config)
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })

  local bufnr
  step('open', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(scenario.workspace .. '/' .. scenario.file))
    bufnr = vim.api.nvim_get_current_buf()
    result.filetype = vim.bo[bufnr].filetype
    if result.filetype ~= 'yaml' then error('filetype is ' .. result.filetype .. ', not yaml', 0) end
    if not client_id then error('no language client was started for the buffer', 0) end
  end)

  step('initialize', function()
    wait_for('the server to initialize', function()
      local client = vim.lsp.get_client_by_id(client_id)
      return client ~= nil and client.initialized == true
    end)
    local client = vim.lsp.get_client_by_id(client_id)
    local caps = client.server_capabilities or {}
    result.serverInfo = client.server_info or vim.NIL
    result.textDocumentSync = caps.textDocumentSync or vim.NIL
    result.hoverProvider = caps.hoverProvider or vim.NIL
  end)

  step('diagnostics', function()
    local ok = pcall(wait_for, string.format('%d diagnostics', scenario.expect.count), function()
      return #vim.diagnostic.get(bufnr) == scenario.expect.count
    end)
    result.diagnostics = diagnostics(bufnr)
    if not ok then error(string.format('timed out waiting for %d diagnostics', scenario.expect.count), 0) end
  end)

  step('hover', function()
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      position = { line = scenario.hover.line, character = scenario.hover.character },
    }
    local responses, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, scenario.timeoutMs)
    if not responses then error('hover: ' .. tostring(err), 0) end
    local response = responses[client_id]
    if not response then error('hover: no response from the server', 0) end
    if response.err then error('hover: ' .. vim.inspect(response.err), 0) end
    local contents = response.result and response.result.contents
    result.hoverKind = type(contents) == 'table' and contents.kind or vim.NIL
    result.hover = type(contents) == 'table' and contents.value or contents or vim.NIL
  end)

  step('edit', function()
    local e = scenario.edit
    local before = vim.api.nvim_buf_get_text(bufnr, e.line, e.startCol, e.line, e.endCol, {})[1]
    result.textBeforeEdit = before
    if before ~= e.before then error(string.format('expected %q at the edit range, found %q', e.before, before), 0) end
    vim.api.nvim_buf_set_text(bufnr, e.line, e.startCol, e.line, e.endCol, { e.text })
    result.lineAfterEdit = vim.api.nvim_buf_get_lines(bufnr, e.line, e.line + 1, true)[1]
    local ok = pcall(wait_for, string.format('%s to disappear', e.goneCode), function()
      local list = vim.diagnostic.get(bufnr)
      return #list == e.count and not has_code(list, e.goneCode)
    end)
    result.diagnosticsAfterEdit = diagnostics(bufnr)
    if not ok then error(string.format('timed out waiting for %s to disappear', e.goneCode), 0) end
  end)

  step('shutdown', function()
    vim.lsp.stop_client(client_id)
    wait_for('the server to shut down', function()
      local client = vim.lsp.get_client_by_id(client_id)
      return client == nil or client:is_stopped() -- `:` works for 0.7 functions and 0.11 methods
    end)
  end)
end

local function main()
  local ok, err = xpcall(run, function(e)
    return type(e) == 'string' and e or vim.inspect(e)
  end)
  if not ok then
    result.error = err
    -- What the editor saw last, even if the failing step did not record it.
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):match('%.yaml$') then result.diagnosticsAtFailure = diagnostics(b) end
    end
  end
  result.totalMs = ms(started)
  write()
  vim.cmd(ok and 'qa!' or 'cq!')
end

-- After startup, so the scenario runs in a fully initialised editor (filetype detection, autocmds).
vim.api.nvim_create_autocmd('VimEnter', { once = true, callback = function() vim.schedule(main) end })
