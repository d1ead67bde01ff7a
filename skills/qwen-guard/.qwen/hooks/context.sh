#!/bin/sh
# UserPromptSubmit context: in Qwen Code a plain stdout of this event is
# context, a text part after the prompt; the hook fires again (prompt "")
# each time tool results go back, so the model reads it every turn.
cat > /dev/null
echo "Releases are cut from the release/ branch; never push tags from main."
