8 8
es ew sw x - es sw -
ne sw ne sw x ns ne sw
- ns es nw - ns es nw
es nw ns x es nw ns x
ne sw ns - ns - ns -
- ns ne ew nw x ne sw
es nw es ew sw es ew nw
ne ew nw - ne nw x -
