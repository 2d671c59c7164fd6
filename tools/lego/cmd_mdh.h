/* cmd_mdh.h - `lego mdh` (internal to the CLI). */
#ifndef LEGO_CMD_MDH_H
#define LEGO_CMD_MDH_H

/* Takes the arguments after the command name; returns the exit status. */
int lego_cmd_mdh(int argc, char **argv);

#endif
