/* cmd_infer.h - `lego infer` (internal to the CLI). */
#ifndef LEGO_CMD_INFER_H
#define LEGO_CMD_INFER_H

/* Takes the arguments after the command name; returns the exit status
 * (0 ok, 1 error in the input, 2 usage error). */
int lego_cmd_infer(int argc, char **argv);

#endif
