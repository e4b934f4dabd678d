-- Headless Neovim (0.7: vim.lsp.start_client + buf_attach_client) driving `toolsense serve` as a real client.
-- Inputs (environment): TOOLSENSE_PYTHON, TOOLSENSE_ROOT, TOOLSENSE_FILE, TOOLSENSE_OUT, TOOLSENSE_COMPLETE_LINE,
-- TOOLSENSE_COMPLETE_CHAR, TOOLSENSE_EDIT_LINE, TOOLSENSE_EDIT_COL, TOOLSENSE_EDIT_TEXT, TOOLSENSE_EDIT_EXPECT (text
-- a diagnostic shows once the edit is seen). Lines are 0-based; the edit column is a byte column, as Neovim
-- counts. Output: one JSON object written to TOOLSENSE_OUT, then :qa!.
local env = vim.env
local result = { steps = {} }

local function finish()
  local file = io.open(env.TOOLSENSE_OUT, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qa!")
end

local function step(name) table.insert(result.steps, name) end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = "toolsense",
    cmd = { env.TOOLSENSE_PYTHON, "-m", "toolsense", "serve" },
    root_dir = env.TOOLSENSE_ROOT,
    init_options = { diagnostics = { debounce_ms = 0 } },
  })
  result.client_id = client_id
  vim.cmd("edit " .. vim.fn.fnameescape(env.TOOLSENSE_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  step("attached")

  local function diagnostics()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      local code = d.code
      if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
      table.insert(out, {
        lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
        code = code, message = d.message, source = d.source,
      })
    end
    return out
  end

  vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  result.diagnostics = diagnostics()
  step("diagnostics")

  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = tonumber(env.TOOLSENSE_COMPLETE_LINE), character = tonumber(env.TOOLSENSE_COMPLETE_CHAR) },
  }
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/completion", params, 15000) or {}
  result.completion = {}
  for _, response in pairs(responses) do
    local items = response.result and (response.result.items or response.result) or {}
    for _, item in ipairs(items) do
      local edit = item.textEdit
      table.insert(result.completion, {
        label = item.label,
        new_text = edit and edit.newText or vim.NIL,
        range = edit and edit.range or vim.NIL,
        insert_text_format = item.insertTextFormat or vim.NIL,
      })
    end
  end
  step("completion")

  -- An edit through Neovim's own incremental sync: the diagnostics follow it.
  local line, col = tonumber(env.TOOLSENSE_EDIT_LINE), tonumber(env.TOOLSENSE_EDIT_COL)
  vim.api.nvim_buf_set_text(bufnr, line, col, line, col, { env.TOOLSENSE_EDIT_TEXT })
  vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if string.find(d.message, env.TOOLSENSE_EDIT_EXPECT, 1, true) then return true end
    end
    return false
  end, 50)
  result.after_edit = diagnostics()
  step("edited")

  local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 15000) or {}
  for _, response in pairs(hover) do
    if response.result and response.result.contents then
      result.hover = response.result.contents.value or response.result.contents
    end
  end
  step("hover")
  vim.lsp.stop_client(client_id)
end)
if not ok then result.error = tostring(err) end
finish()
