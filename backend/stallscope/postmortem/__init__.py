"""The postmortem export: an incident written up as Markdown and HTML, with its evidence as SVG images."""
