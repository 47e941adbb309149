// Drives the installed Claude Code through the Agent SDK, so that an "ask"
// from agentgate's hook reaches canUseTool: the person at the host's
// dialog. Usage: node ask.mjs CLAUDE_BINARY allow|deny
// Prints one JSON line: the session id, what the person was asked, and
// the result message.
import { query } from "@anthropic-ai/claude-agent-sdk";

const [claude, answer] = process.argv.slice(2);
const asked = [];
let session = "";
let result = null;
const q = query({
  prompt: "Run the command you are given.",
  options: {
    pathToClaudeCodeExecutable: claude,
    cwd: process.cwd(),
    env: process.env,
    permissionMode: "default",
    settingSources: ["user"], // the hook agentgate install wrote
    maxTurns: 4,
    canUseTool: async (toolName, input) => {
      asked.push({ toolName, input });
      return answer === "allow"
        ? { behavior: "allow", updatedInput: input }
        : { behavior: "deny", message: "The person declined." };
    },
  },
});
for await (const m of q) {
  if (m.session_id) session = m.session_id;
  if (m.type === "result") result = m;
}
console.log(JSON.stringify({ session, asked, result }));
