"""What we know about model providers without importing litellm (which costs seconds at startup).

`LITELLM_PROVIDERS` mirrors `litellm.provider_list` of the pinned litellm; `PROVIDER_CREDENTIALS` names
the environment variables litellm reads for each key-based provider (either one of a tuple is enough).
`tests/test_models_providers.py` checks both against the installed litellm, so they cannot drift silently.
"""

from __future__ import annotations

from dataclasses import dataclass

LITELLM_PROVIDERS: frozenset[str] = frozenset(
    """
    a2a a2a_agent ai21 ai21_chat aiml aiohttp_openai amazon_nova anthropic anthropic_text apertis assemblyai
    auto_router aws_polly aws_textract azure azure_ai azure_speech azure_text baseten bedrock bedrock_mantle
    black_forest_labs bytez cerebras charity_engine chatgpt chutes clarifai cloudflare codestral cognition cohere
    cohere_chat cometapi compactifai cortecs cursor custom custom_openai darkbloom dashscope databricks datarobot
    deepgram deepinfra deepseek docker_model_runner dotprompt edenai elevenlabs empower fal_ai featherless_ai
    fireworks_ai friendliai galadriel gdc gemini gigachat github github_copilot gradient_ai groq helicone heroku
    hosted_vllm huggingface humanloop hyperbolic inception infinity jina_ai lambda_ai langflow langfuse langgraph
    lemonade libertai litellm_agent litellm_proxy llamafile lm_studio manus maritalk meta meta_llama milvus minimax
    mistral modelscope mongodb moonshot morph nadir nano-gpt nebius neosantara nlp_cloud novita nscale nvidia_nim
    nvidia_riva oci ollama ollama_chat oobabooga openai openai_like openrouter ovhcloud parasail perplexity petals
    pg_vector pinstripes poe predibase prism publicai qwen_ai_platform qwencloud ragflow recraft reducto reka
    replicate runwayml s3_vectors sagemaker sagemaker_chat sagemaker_nova sail sambanova sap scaleway scx-ai
    snowflake soniox stability strands_decider synthetic tencent tensormesh text-completion-codestral
    text-completion-inception text-completion-openai together_ai topaz transcribe triton typesafe v0 valkey
    vercel_ai_gateway vertex_ai vertex_ai_beta vllm volcengine voyage wandb watsonx watsonx_text xai xiaomi_mimo
    xinference zai
    """.split()
)

# Key-based providers only. Providers authenticated otherwise (bedrock, vertex_ai, azure, local servers)
# are not checked here: litellm reports their problems at the first call.
PROVIDER_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_API_KEY",),
    "openai": ("OPENAI_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "openrouter": ("OPENROUTER_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "xai": ("XAI_API_KEY",),
    "together_ai": ("TOGETHERAI_API_KEY",),
    "fireworks_ai": ("FIREWORKS_AI_API_KEY",),
    "cohere": ("COHERE_API_KEY",),
    "perplexity": ("PERPLEXITYAI_API_KEY",),
    "deepinfra": ("DEEPINFRA_API_KEY",),
    "cerebras": ("CEREBRAS_API_KEY",),
}

# ADK's native Gemini (google-genai) takes either key, or Vertex AI when GOOGLE_GENAI_USE_VERTEXAI is true.
GEMINI_NATIVE_CREDENTIALS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")

# The Claude Agent SDK runs the Claude Code CLI, which also accepts these (or a login stored in ~/.claude).
CLAUDE_CODE_CREDENTIALS = (
    "ANTHROPIC_API_KEY",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
)


@dataclass(frozen=True)
class AutoDefault:
    """The models picked when the user names none, for one provider key found in the environment.

    `cheap` serves the compactor, whose summaries do not need the strongest model.
    """

    env_vars: tuple[str, ...]
    main: str
    cheap: str


# Order matters: the first provider with a key wins.
AUTO_DEFAULTS: tuple[AutoDefault, ...] = (
    AutoDefault(("ANTHROPIC_API_KEY",), "anthropic/claude-sonnet-4-5", "anthropic/claude-haiku-4-5"),
    AutoDefault(("OPENAI_API_KEY",), "openai/gpt-4.1", "openai/gpt-4.1-mini"),
    AutoDefault(("GEMINI_API_KEY", "GOOGLE_API_KEY"), "gemini-2.5-pro", "gemini-2.5-flash"),
    AutoDefault(
        ("OPENROUTER_API_KEY",), "openrouter/anthropic/claude-sonnet-4.5", "openrouter/anthropic/claude-haiku-4.5"
    ),
)

# Every variable `.env` may contribute to the credential check and to the model clients.
CREDENTIAL_ENV_VARS: tuple[str, ...] = tuple(
    dict.fromkeys(
        [v for vars_ in PROVIDER_CREDENTIALS.values() for v in vars_]
        + list(CLAUDE_CODE_CREDENTIALS)
        + ["GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"]
    )
)
