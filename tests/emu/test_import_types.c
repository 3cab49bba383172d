// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
int main(void)
{
	return 77;
}
