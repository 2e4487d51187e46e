"""Request transforms for the pixel proxy mode (spec pixel-and-mem A14): Anthropic Messages,
OpenAI Chat/Responses and Gemini generateContent. Each returns a
:class:`~cavemem.pixel.transforms.common.TransformResult`; none touches the network."""
