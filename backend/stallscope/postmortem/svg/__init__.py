"""Pure SVG renderers for the postmortem's evidence images: data in, a standalone SVG file out."""
