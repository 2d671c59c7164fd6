#!/bin/sh
# Regenerates the pictures of this folder: sh docs/pictures/make.sh [LEGO]
set -e
LEGO=${1:-build/lego}
D=docs/pictures
$LEGO show $D/fig9.lego G -o $D/fig9.svg \
	--title 'Figure 9: G = O1.O2.GroupBy([6,6])'
$LEGO show $D/fig9.lego G --inverse -o $D/fig9-inverse.svg \
	--title 'Figure 9, inverse: the element (row,col) at each physical index'
$LEGO show $D/fig10.lego Fig10 --tile 8 -o $D/fig10.svg \
	--title 'Figure 10: equation 7, tiles of 8'
$LEGO show $D/tiled.lego RowT -o $D/tiled-row.svg \
	--title 'OrderBy(Row(4,6)).TileBy([2,3],[2,2])'
$LEGO show $D/tiled.lego ColT -o $D/tiled-col.svg \
	--title 'OrderBy(Col(4,6)).TileBy([2,3],[2,2])'
