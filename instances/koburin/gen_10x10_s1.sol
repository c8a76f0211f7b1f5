10 10
es ew ew sw x es ew ew sw -
ns - - ns - ns - es nw -
ns es ew nw es nw - ne ew sw
ns ns - es nw - es ew sw ns
ns ne sw ne sw - ns - ne nw
ns - ns - ns - ns - x -
ns - ns es nw x ns x es sw
ns x ne nw x - ne ew nw ns
ns - x es ew sw x - es nw
ne ew ew nw - ne ew ew nw -
