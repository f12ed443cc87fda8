"""Sub-second heatmaps: seconds across, offset within the second down."""
