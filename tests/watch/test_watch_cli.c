#include <criterion/criterion.h>
Test(cli, placeholder)
{
	cr_assert(1);
}
