/* cmd_mlir.h - `lego mlir` (internal to the CLI). */
#ifndef LEGO_CMD_MLIR_H
#define LEGO_CMD_MLIR_H

/* Takes the arguments after the command name; returns the exit status. */
int lego_cmd_mlir(int argc, char **argv);

#endif
